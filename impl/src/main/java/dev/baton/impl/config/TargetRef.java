package dev.baton.impl.config;

/** A connection and one of its models, as written in a route: {@code connection/model}. */
public record TargetRef(String connection, String model) {

    @Override
    public String toString() {
        return connection + "/" + model;
    }
}
