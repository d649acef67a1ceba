/**
 * Budgets that hold under concurrency: before a call is sent, its worst-case cost is held against every budget it
 * spends from (the gateway key's, the route's, and per attempt the connection's); when the call ends the hold is
 * settled with what it cost. A call whose hold does not fit is refused before any provider is asked. Holds live in a
 * {@link dev.baton.impl.budget.SpendLedger}: in memory per node, or shared through the cluster store.
 */
package dev.baton.impl.budget;
