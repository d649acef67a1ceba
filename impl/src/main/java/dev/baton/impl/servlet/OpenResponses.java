package dev.baton.impl.servlet;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The responses of one application not yet ended, to tell a quiet server from a busy one. A finished answer is
 * flushed by {@code complete()}, on Open Liberty from another thread; flushing it from the writing thread first sends
 * it a hand-off sooner, but costs a write of its own. While no more responses are open than there are cores, a core is
 * free for that write; beyond, the write costs more CPU than it saves time and {@link AsyncOutput} leaves it out.
 *
 * <p>One per application, owned by its {@link Endpoint}. Thread-safe.
 */
final class OpenResponses {

    private final AtomicInteger open = new AtomicInteger();
    private final int quietUpTo;

    OpenResponses(int quietUpTo) {
        this.quietUpTo = quietUpTo;
    }

    void opened() {
        open.incrementAndGet();
    }

    void closed() {
        open.decrementAndGet();
    }

    boolean quiet() {
        return open.get() <= quietUpTo;
    }
}
