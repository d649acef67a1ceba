package dev.baton.exception;

/**
 * Baton's configuration is wrong: a missing or invalid key, an unknown connection in a route, a
 * policy value out of range. Thrown at deployment, never on the request path; the message names
 * the key, the bad value and, when known, where the value came from.
 */
public class FailoverDefinitionException extends RuntimeException {

    public FailoverDefinitionException(String message) {
        super(message);
    }
}
