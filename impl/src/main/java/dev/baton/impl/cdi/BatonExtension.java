package dev.baton.impl.cdi;

import dev.baton.FailoverChatService;
import dev.baton.FailoverEmbeddingService;
import dev.baton.FailoverPolicy;
import dev.baton.Route;
import dev.baton.exception.FailoverDefinitionException;
import dev.baton.impl.adapter.Adapters;
import dev.baton.impl.cluster.ClusterSettings;
import dev.baton.impl.cluster.ClusterStores;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.ConfigLoader;
import dev.baton.impl.config.PolicyOverride;
import dev.baton.impl.config.PolicyResolver;
import dev.baton.impl.config.ServerFeatures;
import dev.baton.impl.record.RecordStores;
import dev.baton.impl.servlet.EndpointSettings;
import dev.baton.spi.ProviderAdapterFactory;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.Annotated;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedParameter;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.InjectionPoint;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.enterprise.inject.spi.ProcessInjectionPoint;
import jakarta.enterprise.inject.spi.WithAnnotations;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import java.lang.reflect.Constructor;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads Baton's configuration once, when the application deploys, together with every
 * {@code @Route} and {@code @FailoverPolicy} in the application and their config overrides, so
 * that a wrong or missing value fails the deployment with a message naming the key or the
 * annotation instead of failing a request later.
 */
public class BatonExtension implements Extension {

    /** What an injection point binds to. {@code site} names it in messages: {@code com.example.Drafts.chat}. */
    record Binding(String route, PolicyOverride policy, String site) {
    }

    /** An annotation found at deployment; {@code method} is set for a business method's. */
    private record Declared(Class<?> type, String member, FailoverPolicy annotation, String route, String site,
                            Method method) {
    }

    private final List<Declared> injectionPoints = new ArrayList<>();
    private final List<Declared> annotatedMethods = new ArrayList<>();
    private final Map<String, Binding> bindings = new ConcurrentHashMap<>();
    private final Map<Method, PolicyOverride> methodPolicies = new ConcurrentHashMap<>();
    private final Map<Class<?>, PolicyOverride> classPolicies = new ConcurrentHashMap<>();
    private volatile List<ProviderAdapterFactory> providers = List.of();
    private volatile BatonConfig config;
    private volatile ClusterSettings cluster = ClusterSettings.MEMORY;
    private volatile EndpointSettings endpoint;

    void injectionPoint(@Observes ProcessInjectionPoint<?, FailoverChatService> event) {
        declare(event.getInjectionPoint());
    }

    void embeddingInjectionPoint(@Observes ProcessInjectionPoint<?, FailoverEmbeddingService> event) {
        declare(event.getInjectionPoint());
    }

    private void declare(InjectionPoint ip) {
        Member member = ip.getMember();
        injectionPoints.add(new Declared(member.getDeclaringClass(), memberName(ip), policyAt(ip.getAnnotated()),
                routeOf(ip), site(ip), null));
    }

    void annotatedType(@Observes @WithAnnotations(FailoverPolicy.class) ProcessAnnotatedType<?> event) {
        AnnotatedType<?> type = event.getAnnotatedType();
        Class<?> javaClass = type.getJavaClass();
        FailoverPolicy onClass = type.getAnnotation(FailoverPolicy.class);
        if (onClass != null) {
            annotatedMethods.add(new Declared(javaClass, null, onClass, null, javaClass.getName(), null));
        }
        for (AnnotatedMethod<?> method : type.getMethods()) {
            FailoverPolicy onMethod = method.getAnnotation(FailoverPolicy.class);
            if (onMethod != null) {
                Method m = method.getJavaMember();
                annotatedMethods.add(new Declared(javaClass, m.getName(), onMethod, null, m.toString(), m));
            }
        }
    }

    /**
     * Reads and checks everything once every bean and injection point is known, and before
     * deployment validation: a bad value is a definition error, so the server goes no further with
     * the application (WildFly, for one, registers an application's health checks during validation
     * and would keep those of an application that then failed).
     */
    void validate(@Observes AfterBeanDiscovery event) {
        Config mp = ConfigProvider.getConfig();
        try {
            providers = Adapters.discover();
            config = ConfigLoader.load(mp, providers);
            ServerFeatures.require(config, BatonExtension.class.getClassLoader());
            cluster = ClusterSettings.read(mp);
            endpoint = EndpointSettings.load(mp);
            // A store configured without its module stops the deployment here, before any bean is created.
            ClusterStores.require(cluster);
            RecordStores.require(config.records());
        } catch (FailoverDefinitionException e) {
            event.addDefinitionError(e);
            return;
        }
        PolicyResolver resolver = new PolicyResolver(mp, config);
        List<String> problems = new ArrayList<>();
        for (Declared d : injectionPoints) {
            if (d.route() != null && !config.routes().containsKey(d.route())) {
                problems.add("@Route(\"" + d.route() + "\") at " + d.site() + ": no such route; configured routes are "
                        + config.routes().keySet() + " (baton.routes.<name>.targets)");
            }
            PolicyOverride policy = d.annotation() == null ? PolicyOverride.NONE
                    : resolver.resolve(d.annotation(), d.type(), d.member());
            bindings.put(d.site(), new Binding(d.route(), policy, d.site()));
        }
        for (Declared d : annotatedMethods) {
            PolicyOverride policy = resolver.resolve(d.annotation(), d.type(), d.member());
            if (d.method() == null) {
                classPolicies.put(d.type(), policy);
            } else {
                methodPolicies.put(d.method(), policy);
            }
        }
        problems.addAll(resolver.problems());
        if (!problems.isEmpty()) {
            event.addDefinitionError(new FailoverDefinitionException(
                    "Baton failover policies are invalid:\n  - " + String.join("\n  - ", problems)));
            return;
        }
        if (healthApiPresent()) {
            ReadinessChecks.register(event, config.routes().keySet()); // one readiness check per route
            if (cluster.redis()) {
                ReadinessChecks.registerCluster(event);
            }
        }
    }

    private static boolean healthApiPresent() {
        try {
            Class.forName("org.eclipse.microprofile.health.HealthCheck", false, BatonExtension.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** {@code baton.cluster.*}: {@link ClusterSettings#MEMORY} unless a cluster store is configured. */
    public ClusterSettings cluster() {
        return cluster;
    }

    /** {@code baton.endpoint.*}, read at deployment. */
    EndpointSettings endpoint() {
        return endpoint;
    }

    /** The configuration read at deployment. */
    public BatonConfig config() {
        if (config == null) {
            throw new IllegalStateException("Baton's configuration was not read; did the deployment fail?");
        }
        return config;
    }

    /** The provider adapters found at deployment; {@link #config()} was validated against them. */
    List<ProviderAdapterFactory> providers() {
        return providers;
    }

    /** The route and policy of an injection point seen at deployment, or of a programmatic lookup. */
    Binding bindingFor(InjectionPoint ip) {
        if (ip != null && ip.getMember() != null) {
            Binding known = bindings.get(site(ip));
            if (known != null) {
                return known;
            }
        }
        // A programmatic lookup (Instance, CDI.current()): only the qualifier counts.
        String route = ip == null ? null : routeOf(ip);
        if (route != null && !config().routes().containsKey(route)) {
            throw new FailoverDefinitionException("@Route(\"" + route + "\"): no such route; configured routes are "
                    + config().routes().keySet());
        }
        return new Binding(route, PolicyOverride.NONE, ip == null || ip.getMember() == null ? "a programmatic lookup"
                : site(ip));
    }

    /** The policy of an intercepted business method: its own annotation's, else its class's. */
    PolicyOverride policyFor(Method method, Class<?> targetClass) {
        PolicyOverride own = methodPolicies.get(method);
        if (own != null) {
            return own;
        }
        for (Class<?> c = targetClass; c != null && c != Object.class; c = c.getSuperclass()) {
            PolicyOverride inherited = classPolicies.get(c);
            if (inherited != null) {
                return inherited;
            }
        }
        return PolicyOverride.NONE;
    }

    private static FailoverPolicy policyAt(Annotated annotated) {
        return annotated == null ? null : annotated.getAnnotation(FailoverPolicy.class);
    }

    private static String routeOf(InjectionPoint ip) {
        return ip.getQualifiers().stream().filter(Route.class::isInstance).map(q -> ((Route) q).value())
                .findFirst().orElse(null);
    }

    /** The field, or the method whose parameter is injected; {@code null} for a constructor parameter. */
    private static String memberName(InjectionPoint ip) {
        return ip.getMember() instanceof Constructor<?> ? null : ip.getMember().getName();
    }

    private static String site(InjectionPoint ip) {
        Member m = ip.getMember();
        String where = m.getDeclaringClass().getName() + "." + (m instanceof Constructor<?> ? "<init>" : m.getName());
        return ip.getAnnotated() instanceof AnnotatedParameter<?> p ? where + "(parameter " + p.getPosition() + ")" : where;
    }
}
