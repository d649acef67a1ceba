package dev.baton;

import java.util.Objects;

/**
 * Which target answered a request.
 *
 * @param model      the model that actually served, which may differ from the one requested
 * @param provider   the provider kind of the serving connection, for example {@code openai}
 * @param connection the configured name of the serving connection
 * @param position   the position in the chain that served: {@code primary}, {@code standby_a},
 *                   {@code standby_b}, …
 * @param routeName  the route the caller named, or {@code null} when the caller named a model
 */
public record ServedBy(String model, String provider, String connection, String position, String routeName) {

    public ServedBy {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(position, "position");
    }
}
