package dev.baton.impl.budget;

import dev.baton.ChatRequest;
import dev.baton.Cost;
import dev.baton.exception.RequestRejectedException;
import dev.baton.record.RequestRecord;
import dev.baton.wire.OpenAiShape;
import jakarta.json.JsonObject;
import jakarta.json.spi.JsonProvider;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One call's spend: a hold for its worst case against the caller's and the route's budgets, taken before the first
 * attempt, and per attempt a hold against its connection's budget. Each attempt is charged what it cost: its usage at
 * the model's price when it served, its worst case when it served without usage or broke after output reached the
 * caller (the provider bills what it generated), nothing when it failed before any output (nothing was billed). At most
 * one attempt of a call is ever charged, since a call stops at the first served or committed attempt, so the call's
 * hold (the most expensive target's worst case) bounds the call. Thread-safe.
 */
public final class Tab {

    private static final JsonProvider JSON = JsonProvider.provider();

    private final Spending spending;
    private final List<Account> accounts;
    private final ChatRequest request;
    private final boolean hidesUsage;
    private Hold.Granted callHold;
    private Hold.Granted attemptHold;
    private BigDecimal attemptWorst = BigDecimal.ZERO;
    private BigDecimal charged = BigDecimal.ZERO;
    private boolean closed;

    Tab(Spending spending, List<Account> accounts, ChatRequest request, boolean chat) {
        this.spending = spending;
        this.accounts = List.copyOf(accounts);
        // A Responses stream always ends with its usage; embeddings are never streamed.
        this.hidesUsage = chat && request.stream() && !OpenAiShape.asksForUsage(request.body());
        this.request = hidesUsage ? request.withBody(withUsage(request.body())) : request;
    }

    /**
     * The request to send: a stream's charge is read from its usage chunk, so a stream whose caller did not ask for
     * that chunk asks for it here (and {@link #hidesUsage()}).
     */
    public ChatRequest request() {
        return request;
    }

    /** Whether the caller did not ask for the usage chunk that {@link #request()} asks for: it is kept from it. */
    public boolean hidesUsage() {
        return hidesUsage;
    }

    /**
     * Holds the call's worst case on any of {@code models} against the caller's and route's budgets.
     *
     * @return completes with {@code null} when held (or nothing to hold), else what refused it
     */
    public CompletableFuture<Hold.Refused> open(Collection<String> models) {
        if (accounts.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        BigDecimal worst = BigDecimal.ZERO;
        for (String model : models) {
            worst = worst.max(WorstCase.cost(request.body(), model, spending.config()));
        }
        return spending.ledger().hold(accounts, worst, spending.clock().instant()).thenApply(hold -> {
            if (hold instanceof Hold.Granted granted) {
                held(granted);
                return null;
            }
            return (Hold.Refused) hold;
        });
    }

    /**
     * Holds an attempt's worst case on {@code model} against {@code connection}'s budget, when it has one.
     *
     * @return completes with {@code null} when held (or nothing to hold), else why the connection cannot take it
     */
    public CompletableFuture<Hold.Refused> beginAttempt(String connection, String model) {
        BigDecimal worst = WorstCase.cost(request.body(), model, spending.config());
        Account account = spending.connection(connection);
        synchronized (this) {
            attemptWorst = worst;
            attemptHold = null;
        }
        if (account == null) {
            return CompletableFuture.completedFuture(null);
        }
        return spending.ledger().hold(List.of(account), worst, spending.clock().instant()).thenApply(hold -> {
            if (hold instanceof Hold.Granted granted) {
                synchronized (this) {
                    attemptHold = granted;
                }
                return null;
            }
            return (Hold.Refused) hold;
        });
    }

    /**
     * The attempt ended: charges it (see the class comment) and settles its connection's hold.
     *
     * @param cost      its cost from its usage, or {@code null} when it had none or the model is unpriced
     * @param served    whether it served the call
     * @param committed whether its output had reached the caller
     */
    public synchronized void endAttempt(Cost cost, boolean served, boolean committed) {
        BigDecimal charge = served ? (cost != null ? cost.amount() : attemptWorst)
                : committed ? attemptWorst : BigDecimal.ZERO;
        charged = charged.add(charge);
        if (attemptHold != null) {
            spending.ledger().settle(attemptHold, charge);
            attemptHold = null;
        }
    }

    /** The call ended: its hold is settled with what its attempts were charged. Once; later calls do nothing. */
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (callHold != null) {
            spending.ledger().settle(callHold, charged);
        }
    }

    /** A hold granted after the call ended (the caller went away while it was asked for) is settled at once. */
    private synchronized void held(Hold.Granted granted) {
        if (closed) {
            spending.ledger().settle(granted, BigDecimal.ZERO);
        } else {
            callHold = granted;
        }
    }

    /** What a connection that cannot take an attempt is skipped with, for the record. */
    public static String skipReason(Hold.Refused refused) {
        Account account = refused.account();
        return "its budget of " + plain(account.budget().amount()) + " per " + account.budget().periodText()
                + " has " + plain(refused.committed()) + " spent or held, and this request may cost up to "
                + plain(refused.asked());
    }

    /**
     * 402 {@code budget_exceeded}, saying whose budget, how much is taken, what this request may cost, and when it is
     * whole again.
     */
    public static RequestRejectedException refusal(Hold.Refused refused, Instant now, RequestRecord record) {
        Account account = refused.account();
        BigDecimal amount = account.budget().amount();
        boolean never = refused.asked().compareTo(amount) > 0;
        String message = never
                ? capitalized(account.describe()) + " has a budget of " + plain(amount) + " per "
                + account.budget().periodText() + ", and this request may cost up to " + plain(refused.asked())
                + " on its most expensive target: more than the whole budget. Set a lower max_completion_tokens"
                + " (or max_tokens)."
                : capitalized(account.describe()) + " has spent or holds for requests in flight "
                + plain(refused.committed()) + " of its budget of " + plain(amount) + " per "
                + account.budget().periodText() + ", and this request may cost up to " + plain(refused.asked())
                + ". The budget resets at " + refused.resetAt() + ".";
        Duration wait = Duration.between(now, refused.resetAt());
        return RequestRejectedException.budgetExceeded(message, never ? null : wait.isNegative() ? Duration.ZERO : wait,
                record);
    }

    private static JsonObject withUsage(JsonObject body) {
        var options = body.get("stream_options") instanceof JsonObject o ? JSON.createObjectBuilder(o)
                : JSON.createObjectBuilder();
        return JSON.createObjectBuilder(body).add("stream_options", options.add("include_usage", true)).build();
    }

    private static String capitalized(String text) {
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }

    private static String plain(BigDecimal amount) {
        return amount.stripTrailingZeros().toPlainString();
    }
}
