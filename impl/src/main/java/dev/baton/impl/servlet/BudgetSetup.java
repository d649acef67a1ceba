package dev.baton.impl.servlet;

import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.ConnectionConfig;
import dev.baton.impl.config.ModelPrice;
import dev.baton.impl.record.DurableRecordStore;
import dev.baton.impl.record.RecordStore;

import java.lang.System.Logger.Level;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/** What the endpoint checks and loads once, at start, for named keys with budgets. */
final class BudgetSetup {

    private static final System.Logger LOG = System.getLogger(BudgetSetup.class.getName());

    private BudgetSetup() {
    }

    /**
     * A budget is one number, so every price it may be charged at must be in one currency: refuse configuration that
     * prices the served models in several. Warn about unpriced models, which cost nothing against a budget.
     *
     * @throws FailoverDefinitionException naming the budget keys and the currencies
     */
    static void check(BatonConfig config, List<NamedKey> keys) {
        List<String> budgeted = keys.stream().filter(k -> k.budget() != null)
                .map(k -> EndpointSettings.NAMED + k.name() + ".budget").toList();
        if (budgeted.isEmpty()) {
            return;
        }
        Map<String, TreeSet<String>> byCurrency = new TreeMap<>();
        TreeSet<String> unpriced = new TreeSet<>();
        for (ConnectionConfig c : config.connections()) {
            for (String model : c.models()) {
                Optional<ModelPrice> price = config.price(model);
                if (price.isPresent()) {
                    byCurrency.computeIfAbsent(price.get().currency(), x -> new TreeSet<>()).add(model);
                } else {
                    unpriced.add(model);
                }
            }
        }
        if (byCurrency.size() > 1) {
            throw new FailoverDefinitionException("Baton endpoint configuration is invalid:\n  - "
                    + String.join(", ", budgeted) + ": a budget counts one currency, but the served models are priced"
                    + " in several " + byCurrency + "; set baton.models.<model>.price.* in one currency");
        }
        if (!unpriced.isEmpty()) {
            LOG.log(Level.WARNING, "Baton cannot estimate the cost of the models " + unpriced + " (no price is configured"
                    + " or listed), so their requests count nothing against " + budgeted + "; set"
                    + " baton.models.<model>.price.* or leave them out of the keys' allowed-models");
        }
    }

    /**
     * With the JDBC record store, what each key spent in its current period before this process started, summed
     * from the records. A database that cannot answer leaves the budgets at zero, logged: a budget is a guard
     * against runaway spend, not the bill, and refusing every request while the database is down would be worse.
     */
    static void restore(KeyBudgets budgets, List<NamedKey> keys, RecordStore store) {
        if (!(store instanceof DurableRecordStore durable)) {
            return;
        }
        for (NamedKey key : keys) {
            if (key.budget() == null) {
                continue;
            }
            try {
                BigDecimal spent = durable.spentSince(key.name(), key.budget().periodStart(budgets.now()));
                budgets.restore(key, spent);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Baton could not read what the key " + key.name() + " spent in its current"
                        + " budget period; it starts from 0", e);
            }
        }
    }
}
