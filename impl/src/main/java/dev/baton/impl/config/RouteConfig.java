package dev.baton.impl.config;

import java.util.List;

/** A named, ordered list of targets with its policy. The order is the failover order. */
public record RouteConfig(String name, List<TargetRef> targets, RoutePolicy policy) {

    public RouteConfig {
        targets = List.copyOf(targets);
    }
}
