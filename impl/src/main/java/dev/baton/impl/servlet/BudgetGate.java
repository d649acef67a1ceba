package dev.baton.impl.servlet;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Before any provider is called: a named key that has spent its budget is refused with 402 until its period ends.
 * What a request costs is charged later, by {@link Metering}.
 */
final class BudgetGate implements GatewayStep {

    /** When an exhausted key's budget is whole again, on a 402 {@code budget_exceeded}. */
    static final String BUDGET_RESET = "x-baton-budget-reset";

    private final KeyBudgets budgets;

    BudgetGate(KeyBudgets budgets) {
        this.budgets = budgets;
    }

    @Override
    public Reply handle(GatewayCall call, Next next) {
        KeyBudgets.Exhausted exhausted = budgets.check(call.key());
        return exhausted == null ? next.proceed(call) : Reply.Answered.now(refusal(exhausted, call.refusalId()));
    }

    /** 402 with the reset time as a header too, and as {@code retry-after} for clients that read only that. */
    private Answer refusal(KeyBudgets.Exhausted exhausted, String refusalId) {
        Answer refusal = Responses.failure(Rejections.budgetExceeded(exhausted), refusalId);
        Map<String, String> headers = new LinkedHashMap<>(refusal.headers());
        headers.put(BUDGET_RESET, exhausted.resetAt().toString());
        long seconds = Math.max(1, Duration.between(budgets.now(), exhausted.resetAt()).toSeconds());
        headers.put("retry-after", Long.toString(seconds));
        return new Answer(refusal.status(), headers, refusal.body());
    }
}
