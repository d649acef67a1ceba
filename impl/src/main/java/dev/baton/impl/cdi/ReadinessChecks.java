package dev.baton.impl.cdi;

import dev.baton.impl.readiness.ClusterReadiness;
import dev.baton.impl.readiness.RouteReadiness;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.Readiness;

import java.util.Collection;

/**
 * Adds one {@code @Readiness} health check bean per configured route. Only called when the
 * MicroProfile Health API is on the class path, so nothing here loads where it is absent. CDI wiring, so it
 * lives here; the check itself ({@link RouteReadiness}) knows only the engine.
 */
final class ReadinessChecks {

    private ReadinessChecks() {
    }

    /** The cluster store's check: always UP (Redis is a helper, never needed to serve), with its state in the data. */
    static void registerCluster(AfterBeanDiscovery event) {
        event.addBean()
                .beanClass(ClusterReadiness.class)
                .types(HealthCheck.class, Object.class)
                .qualifiers(Readiness.Literal.INSTANCE, Any.Literal.INSTANCE)
                .scope(Singleton.class)
                .id("baton-cluster-readiness")
                .createWith(context -> {
                    BatonChatService service = CDI.current().select(BatonChatService.class).get();
                    return new ClusterReadiness(service::cluster);
                });
    }

    static void register(AfterBeanDiscovery event, Collection<String> routes) {
        for (String route : routes) {
            event.addBean()
                    .beanClass(RouteReadiness.class)
                    .types(HealthCheck.class, Object.class)
                    .qualifiers(Readiness.Literal.INSTANCE, Any.Literal.INSTANCE)
                    // One instance per check: WildFly removes an undeployed application's checks by identity, so a
                    // @Dependent check (a new instance per lookup) would outlive its application as a DOWN check.
                    .scope(Singleton.class)
                    .id("baton-route-readiness-" + route)
                    .createWith(context -> {
                        // Resolved once, on the deploying thread; a check may later run on a server thread
                        // where CDI.current() does not know this application.
                        BatonChatService service = CDI.current().select(BatonChatService.class).get();
                        return new RouteReadiness(route, service::engine);
                    });
        }
    }
}
