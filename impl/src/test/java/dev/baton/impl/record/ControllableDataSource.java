package dev.baton.impl.record;

import javax.sql.DataSource;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * A real DataSource that a test can take down (every connection refused, as when the database is
 * unreachable) or slow down (every connection made late), to drive the store's retry and overload paths.
 */
final class ControllableDataSource implements DataSource {

    private final DataSource real;
    private volatile boolean down;
    private volatile long delayMillis;
    /** One permit per connection refused while down. */
    private final Semaphore refused = new Semaphore(0);

    ControllableDataSource(DataSource real) {
        this.real = real;
    }

    void down(boolean isDown) {
        this.down = isDown;
    }

    /** Whether {@code count} connections were refused (taken together) within {@code timeout}. */
    boolean awaitRefused(int count, Duration timeout) throws InterruptedException {
        return refused.tryAcquire(count, timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    void delay(long millis) {
        this.delayMillis = millis;
    }

    @Override
    public Connection getConnection() throws SQLException {
        before();
        return real.getConnection();
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        before();
        return real.getConnection(username, password);
    }

    private void before() throws SQLException {
        if (down) {
            refused.release();
            throw new SQLException("connection refused (the test took the database down)", "08001");
        }
        long delay = delayMillis;
        if (delay > 0) {
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted", "08001", e);
            }
        }
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return real.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        real.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        real.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return real.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return real.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        return real.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return iface.isInstance(this) || real.isWrapperFor(iface);
    }
}
