/**
 * Load balancing inside a tier of a request's plan: the strategies ({@code config.Balance}), the
 * per-target load and outcome windows they read, and the adaptive shares operators see.
 */
package dev.baton.impl.balance;
