package dev.baton.impl.balance;

/**
 * The targets one request balances among: a tier of a route, or the connections serving a model
 * (a request that named a model, or a fallback model).
 *
 * @param route the route, or {@code null} for a model's connections
 * @param tier  the tier within the route, from 1; 0 for a model's connections
 * @param model the model, or {@code null} for a route's tier
 */
public record Pool(String route, int tier, String model) {

    public static Pool tier(String route, int tier) {
        return new Pool(route, tier, null);
    }

    public static Pool model(String model) {
        return new Pool(null, 0, model);
    }

    @Override
    public String toString() {
        return route != null ? route + " tier " + tier : "model " + model;
    }
}
