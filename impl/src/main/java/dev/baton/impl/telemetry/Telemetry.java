package dev.baton.impl.telemetry;

import dev.baton.impl.balance.Balancer;
import dev.baton.impl.budget.Spending;
import dev.baton.impl.engine.EngineObserver;
import dev.baton.impl.health.HealthListener;
import dev.baton.impl.health.HealthRegistry;

import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Baton's telemetry hooks: an engine observer and a health listener backed by the server's
 * MicroProfile Telemetry, or hooks that do nothing when the server has none. This class never
 * touches an OpenTelemetry type itself, so it loads where the API is absent.
 */
public final class Telemetry {

    private static final System.Logger LOG = System.getLogger(Telemetry.class.getName());
    private static final Telemetry NONE = new Telemetry(null);

    private final OtelObserver otel;

    private Telemetry(OtelObserver otel) {
        this.otel = otel;
    }

    /**
     * The application's telemetry; inert when the OpenTelemetry API or its CDI bean is missing, or when MicroProfile
     * Telemetry's SDK is off ({@code otel.sdk.disabled}, true unless set to false): its meters and tracers then do
     * nothing, and building their attributes for every request would still cost several microseconds.
     */
    public static Telemetry fromServer() {
        if (sdkDisabled()) {
            LOG.log(System.Logger.Level.DEBUG, "otel.sdk.disabled is not false: Baton's spans and metrics are off");
            return NONE;
        }
        try {
            Class.forName("io.opentelemetry.api.OpenTelemetry", false, Telemetry.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            LOG.log(System.Logger.Level.DEBUG, "no OpenTelemetry API: Baton's spans and metrics are off");
            return NONE;
        }
        try {
            OtelObserver otel = OtelObserver.fromCdi();
            return otel == null ? NONE : new Telemetry(otel);
        } catch (RuntimeException | LinkageError e) {
            LOG.log(System.Logger.Level.WARNING, "OpenTelemetry is present but unusable; Baton's spans and metrics are off", e);
            return NONE;
        }
    }

    /** MicroProfile Telemetry's switch, as the server reads it: off unless {@code otel.sdk.disabled=false}. */
    static boolean sdkDisabled() {
        try {
            return org.eclipse.microprofile.config.ConfigProvider.getConfig()
                    .getOptionalValue("otel.sdk.disabled", Boolean.class).orElse(true);
        } catch (RuntimeException | LinkageError noConfig) {
            return false; // no MicroProfile Config to ask: the CDI bean decides
        }
    }

    public boolean enabled() {
        return otel != null;
    }

    public EngineObserver observer() {
        return otel != null ? otel : EngineObserver.NONE;
    }

    public HealthListener healthListener() {
        return otel != null ? otel : HealthListener.NONE;
    }

    /** Reports the record store's counters: written, dropped (queue full), failed (database errors), queued. */
    public void watchRecords(LongSupplier written, LongSupplier dropped, LongSupplier failed, LongSupplier queued) {
        if (otel != null) {
            otel.watchRecords(written, dropped, failed, queued);
        }
    }

    /** Starts reporting the balanced tiers' shares as a gauge. */
    public void watchShares(Balancer balancer) {
        if (otel != null) {
            otel.watchShares(balancer);
        }
    }

    /** Reports {@code baton.cluster.connected}: 1 while the cluster store answers, else 0. */
    public void watchCluster(BooleanSupplier connected) {
        if (otel != null) {
            otel.watchCluster(connected);
        }
    }

    /** Reports {@code baton.budget.used} for every budget; nothing at all when no budget is configured. */
    public void watchBudgets(Spending spending) {
        if (otel != null) {
            otel.watchBudgets(spending);
        }
    }

    /** Starts reporting the connections' states as a gauge. */
    public void watch(HealthRegistry health) {
        if (otel != null) {
            otel.watch(health);
        }
    }
}
