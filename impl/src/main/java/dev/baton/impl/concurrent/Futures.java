package dev.baton.impl.concurrent;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** What every layer needs of a failed future. */
public final class Futures {

    private Futures() {
    }

    /** The failure a future's wrappers ({@link CompletionException}, {@link ExecutionException}) carry. */
    public static Throwable unwrap(Throwable error) {
        Throwable t = error;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
