package dev.baton.impl.http;

import java.util.Optional;

/** A response's headers, whatever client received them; names match regardless of case. */
@FunctionalInterface
public interface ResponseHeaders {

    /** The first value of header {@code name}, if it was sent. */
    Optional<String> firstValue(String name);
}
