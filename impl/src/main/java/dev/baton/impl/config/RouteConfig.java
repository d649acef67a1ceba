package dev.baton.impl.config;

import java.util.List;
import java.util.Map;

/**
 * A named list of targets with its policy, in failover order. Targets are grouped in tiers
 * ({@code |} in {@code targets}): the plan balances inside a tier and fails over tier to tier.
 *
 * @param tiers   each target's tier, 0 for the first; absent means 0
 * @param weights each target's weight for weighted, adaptive and sticky balancing; absent means 1
 */
public record RouteConfig(String name, List<TargetRef> targets, RoutePolicy policy, Map<TargetRef, Integer> tiers,
                          Map<TargetRef, Integer> weights) {

    /** The most a target's weight may be. */
    public static final int MAX_WEIGHT = 1000;

    public RouteConfig {
        targets = List.copyOf(targets);
        tiers = Map.copyOf(tiers);
        weights = Map.copyOf(weights);
    }

    /** One tier, every weight 1. */
    public RouteConfig(String name, List<TargetRef> targets, RoutePolicy policy) {
        this(name, targets, policy, Map.of(), Map.of());
    }

    public int tier(TargetRef target) {
        return tiers.getOrDefault(target, 0);
    }

    public int weight(TargetRef target) {
        return weights.getOrDefault(target, 1);
    }
}
