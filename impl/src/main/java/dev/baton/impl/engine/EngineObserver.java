package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;

import java.util.ArrayList;
import java.util.List;

/**
 * Watches requests go through the engine, for telemetry and operators' statistics. Everything
 * about a request is in its {@link RequestRecord}, so most observers only need {@link #finished}.
 * Methods must be fast and must not throw; the engine logs and ignores a throw.
 */
public interface EngineObserver {

    EngineObserver NONE = new EngineObserver() {
    };

    /**
     * On the caller's thread, when a request is admitted (before any attempt). Whatever it returns
     * is handed back to {@link #finished}, e.g. the caller's tracing context.
     */
    default Object admitted(String requestId, ChatRequest request) {
        return null;
    }

    /** Once per admitted request, after its record was saved. */
    default void finished(RequestRecord record, Object admission) {
    }

    /** An attempt on {@code target} starts; {@link #attemptEnded} follows once, however it ends. */
    default void attemptStarted(String requestId, String target) {
    }

    /** An attempt ended: served, failed, or abandoned by its caller. */
    default void attemptEnded(String requestId, AttemptRecord attempt) {
    }

    /** The retry budget refused a same-target retry; the request failed over instead. */
    default void retryRefused(String requestId, String connection) {
    }

    /** A background probe of an ejected connection is sent; {@link #probed} follows once, however it ends. */
    default void probeStarted(String connection) {
    }

    /**
     * A background probe ended, after its record (kind {@code probe}) was saved. Probes are not
     * requests: {@link #finished} is never called for them.
     */
    default void probed(RequestRecord probe) {
    }

    /** A background probe was due but not sent: the connection's own limits refused it ({@code reason}). */
    default void probeNotSent(String connection, String reason) {
    }

    /** All of {@code observers}, in order; each one's {@link #admitted} result goes back to it. */
    static EngineObserver of(List<EngineObserver> observers) {
        List<EngineObserver> all = List.copyOf(observers);
        if (all.size() == 1) {
            return all.get(0);
        }
        return new EngineObserver() {
            @Override
            public Object admitted(String requestId, ChatRequest request) {
                List<Object> states = new ArrayList<>(all.size());
                for (EngineObserver o : all) {
                    states.add(o.admitted(requestId, request));
                }
                return states;
            }

            @Override
            public void finished(RequestRecord record, Object admission) {
                List<?> states = (List<?>) admission;
                for (int i = 0; i < all.size(); i++) {
                    all.get(i).finished(record, states.get(i));
                }
            }

            @Override
            public void attemptStarted(String requestId, String target) {
                all.forEach(o -> o.attemptStarted(requestId, target));
            }

            @Override
            public void attemptEnded(String requestId, AttemptRecord attempt) {
                all.forEach(o -> o.attemptEnded(requestId, attempt));
            }

            @Override
            public void retryRefused(String requestId, String connection) {
                all.forEach(o -> o.retryRefused(requestId, connection));
            }

            @Override
            public void probeStarted(String connection) {
                all.forEach(o -> o.probeStarted(connection));
            }

            @Override
            public void probed(RequestRecord probe) {
                all.forEach(o -> o.probed(probe));
            }

            @Override
            public void probeNotSent(String connection, String reason) {
                all.forEach(o -> o.probeNotSent(connection, reason));
            }
        };
    }
}
