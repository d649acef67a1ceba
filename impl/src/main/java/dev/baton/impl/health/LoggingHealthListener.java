package dev.baton.impl.health;

import dev.baton.impl.config.Durations;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;

/** Logs every change of rotation: an account out of rotation is an incident even when requests succeed. */
public final class LoggingHealthListener implements HealthListener {

    private static final System.Logger LOG = System.getLogger("dev.baton.health");

    @Override
    public void ejected(String connection, Duration coolOff, String cause) {
        if (ConnectionHealth.OPERATOR_CAUSE.equals(cause)) {
            LOG.log(Level.WARNING, "connection {0} ejected for {1} by an operator", connection, Durations.format(coolOff));
        } else {
            LOG.log(Level.WARNING, "connection {0} ejected for {1} after {2} failures", connection,
                    Durations.format(coolOff), cause);
        }
    }

    @Override
    public void parked(String connection, Instant until, String cause) {
        LOG.log(Level.INFO, "connection {0} parked until {1} ({2})", connection, until, cause);
    }

    @Override
    public void restored(String connection) {
        LOG.log(Level.INFO, "connection {0} restored to rotation", connection);
    }
}
