package dev.baton.impl.record;

/**
 * The record database could not answer a read. Thrown rather than answering "not found", which
 * would be a lie about a record that may well exist.
 */
public final class RecordStoreException extends RuntimeException {

    public RecordStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
