package dev.baton.impl.budget;

import dev.baton.ChatRequest;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.Budget;
import dev.baton.impl.record.DurableRecordStore;

import java.lang.System.Logger.Level;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every configured budget, and the ledger they are tallied in: what the engine asks when a call starts. With no budget
 * configured, {@link #open} answers {@code null} and a call does no budget work at all. Thread-safe.
 */
public final class Spending {

    private static final System.Logger LOG = System.getLogger(Spending.class.getName());

    /** No budgets. */
    public static final Spending NONE = new Spending(Map.of(), Map.of(), Map.of(), new LocalLedger(), null,
            InstantSource.system());

    private final Map<String, Account> keys;
    private final Map<String, Account> routes;
    private final Map<String, Account> connections;
    private final SpendLedger ledger;
    private final BatonConfig config;
    private final InstantSource clock;

    private Spending(Map<String, Account> keys, Map<String, Account> routes, Map<String, Account> connections,
                     SpendLedger ledger, BatonConfig config, InstantSource clock) {
        this.keys = keys;
        this.routes = routes;
        this.connections = connections;
        this.ledger = ledger;
        this.config = config;
        this.clock = clock;
    }

    /**
     * The budgets of {@code config}'s routes and connections and of the gateway keys in {@code keyBudgets}, tallied in
     * {@code ledger}.
     *
     * @throws dev.baton.exception.FailoverDefinitionException when the served models are priced in several currencies
     */
    public static Spending of(BatonConfig config, Map<String, Budget> keyBudgets, SpendLedger ledger,
                              InstantSource clock) {
        Map<String, Account> keys = accounts(Account.Scope.KEY, keyBudgets);
        Map<String, Account> routes = accounts(Account.Scope.ROUTE, config.budgets().routes());
        Map<String, Account> connections = accounts(Account.Scope.CONNECTION, config.budgets().connections());
        if (keys.isEmpty() && routes.isEmpty() && connections.isEmpty()) {
            return NONE;
        }
        List<String> budgetKeys = new ArrayList<>();
        keys.keySet().forEach(k -> budgetKeys.add("baton.endpoint.keys." + k + ".budget"));
        routes.keySet().forEach(r -> budgetKeys.add("baton.routes." + r + ".budget"));
        connections.keySet().forEach(c -> budgetKeys.add("baton.connections." + c + ".budget"));
        BudgetCurrency.check(config, budgetKeys);
        return new Spending(keys, routes, connections, ledger, config, clock);
    }

    /**
     * Where a call's spend is held and settled, or {@code null} when no budget can apply to it: its caller has none,
     * its route has none, and no connection has one.
     *
     * @param caller the gateway key's name, or {@code null}
     * @param route  the route's name, or {@code null} for a bare model
     * @param chat   whether {@code request} is a chat completion, whose stream reports its usage only when asked
     */
    public Tab open(String caller, String route, ChatRequest request, boolean chat) {
        Account key = caller == null ? null : keys.get(caller);
        Account routed = route == null ? null : routes.get(route);
        if (key == null && routed == null && connections.isEmpty()) {
            return null;
        }
        List<Account> accounts = new ArrayList<>(2);
        if (key != null) {
            accounts.add(key);
        }
        if (routed != null) {
            accounts.add(routed);
        }
        return new Tab(this, accounts, request, chat);
    }

    /**
     * With a durable record store and the ledger in this node's memory, what each account spent in its current
     * period before this process started, summed from the records. A shared ledger keeps its own tallies, so nothing
     * is restored into it. A store that cannot answer leaves the account at 0, logged: a budget guards against
     * runaway spend, and refusing every request while the database is down would be worse.
     */
    public void restore(DurableRecordStore store) {
        if (!(ledger instanceof LocalLedger)) {
            return;
        }
        for (Map<String, Account> accounts : List.of(keys, routes, connections)) {
            for (Account account : accounts.values()) {
                try {
                    var now = clock.instant();
                    ledger.restore(account, store.spentSince(account.scope(), account.name(),
                            account.budget().periodStart(now)), now);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "Baton could not read what " + account.describe() + " spent in its current"
                            + " budget period; it starts from 0", e);
                }
            }
        }
    }

    /** Every account with a budget: the named keys', the routes' and the connections'; none for {@link #NONE}. */
    public List<Account> accounts() {
        List<Account> all = new ArrayList<>(keys.size() + routes.size() + connections.size());
        all.addAll(keys.values());
        all.addAll(routes.values());
        all.addAll(connections.values());
        return all;
    }

    /**
     * The fraction of {@code account}'s budget spent in its current period, as this node knows it without waiting
     * ({@link SpendLedger#spent}): 0.8 when 80% is gone, above 1 when a call cost more than it held.
     */
    public double used(Account account) {
        return ledger.spent(account, clock.instant()).doubleValue() / account.budget().amount().doubleValue();
    }

    /** The connection's account, or {@code null} when it has no budget. */
    Account connection(String name) {
        return connections.get(name);
    }

    SpendLedger ledger() {
        return ledger;
    }

    BatonConfig config() {
        return config;
    }

    InstantSource clock() {
        return clock;
    }

    private static Map<String, Account> accounts(Account.Scope scope, Map<String, Budget> budgets) {
        Map<String, Account> accounts = new TreeMap<>();
        budgets.forEach((name, budget) -> accounts.put(name, new Account(scope, name, budget)));
        return Map.copyOf(accounts);
    }
}
