package dev.baton.impl.budget;

import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.ConnectionConfig;
import dev.baton.impl.config.ModelPrice;

import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/** What is checked once, at start, when any budget is configured: one currency, and which models count nothing. */
final class BudgetCurrency {

    private static final System.Logger LOG = System.getLogger(BudgetCurrency.class.getName());

    private BudgetCurrency() {
    }

    /**
     * A budget is one number, so every price it may be charged at must be in one currency: refuse configuration that
     * prices the served models in several. Warn about unpriced models, which cost nothing against a budget.
     *
     * @param budgetKeys the configuration keys of the budgets, for the messages
     * @throws FailoverDefinitionException naming the budget keys and the currencies
     */
    static void check(BatonConfig config, List<String> budgetKeys) {
        Map<String, TreeSet<String>> byCurrency = new TreeMap<>();
        TreeSet<String> unpriced = new TreeSet<>();
        for (ConnectionConfig c : config.connections()) {
            for (String model : c.modelIds().keySet()) {
                Optional<ModelPrice> price = config.price(model);
                if (price.isPresent()) {
                    byCurrency.computeIfAbsent(price.get().currency(), x -> new TreeSet<>()).add(model);
                } else {
                    unpriced.add(model);
                }
            }
        }
        if (byCurrency.size() > 1) {
            throw new FailoverDefinitionException("Baton budget configuration is invalid:\n  - "
                    + String.join(", ", budgetKeys) + ": a budget counts one currency, but the served models are priced"
                    + " in several " + byCurrency + "; set baton.models.<model>.price.* in one currency");
        }
        if (!unpriced.isEmpty()) {
            LOG.log(Level.WARNING, "Baton cannot estimate the cost of the models " + unpriced + " (no price is configured"
                    + " or listed), so their requests count nothing against " + budgetKeys + "; set"
                    + " baton.models.<model>.price.* or leave them out of the routes and keys' allowed-models");
        }
    }
}
