package dev.baton.impl.engine;

import dev.baton.impl.config.RoutePolicy;

import java.util.List;

/**
 * What a request's {@code model} resolved to: a route, or a model served by connections plus its
 * fallbacks, with the policy that governs it.
 *
 * @param routeName  the route, or {@code null} when the request named a model
 * @param policy     the route's policy, or the defaults
 * @param candidates the chain in configured order
 */
record Resolution(String routeName, RoutePolicy policy, List<Candidate> candidates) {
}
