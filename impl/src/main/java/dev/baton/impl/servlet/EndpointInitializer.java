package dev.baton.impl.servlet;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.UnavailableException;
import org.eclipse.microprofile.config.ConfigProvider;

import java.lang.System.Logger.Level;
import java.util.EnumSet;
import java.util.Set;

/**
 * Registers the OpenAI-compatible endpoint when {@code baton.endpoint.enabled=true}, and its
 * operator endpoints when an admin key is configured too; otherwise the application gets nothing.
 * A bad {@code baton.endpoint.*} value fails the application's start.
 *
 * <p>The servlets are registered by class, so the container creates them and injects their {@link Endpoint} (built
 * by Baton's composition root); the filter needs only the settings and is registered as an instance.
 */
public class EndpointInitializer implements ServletContainerInitializer {

    private static final System.Logger LOG = System.getLogger(EndpointInitializer.class.getName());
    /** The servlets' names, by which {@link GatewayFilter} knows the requests they will serve. */
    static final String CHAT_SERVLET = "baton-chat";
    static final String OPERATOR_SERVLET = "baton-operator";
    static final String CONSOLE_SERVLET = "baton-console";
    /** Context attribute holding the endpoint's mount point, for {@link ContainerErrorServlet}; absent when disabled. */
    static final String PATH_ATTRIBUTE = "dev.baton.endpoint.path";

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        EndpointSettings settings = EndpointSettings.load(ConfigProvider.getConfig(context.getClassLoader()));
        if (!settings.enabled()) {
            return;
        }
        String mapping = settings.path() + "/*";
        context.setAttribute(PATH_ATTRIBUTE, settings.path());
        FilterRegistration.Dynamic filter = context.addFilter("baton-gateway",
                new GatewayFilter(settings));
        filter.setAsyncSupported(true);
        filter.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, mapping);
        ServletRegistration.Dynamic servlet = context.addServlet(CHAT_SERVLET, ChatEndpointServlet.class);
        servlet.setAsyncSupported(true);
        servlet.addMapping(mapping);
        if (!settings.adminKeyHashes().isEmpty()) {
            // Longer path mappings win over {path}/*; without an admin key these paths fall to the chat servlet's 404.
            ServletRegistration.Dynamic operator = context.addServlet(OPERATOR_SERVLET, OperatorServlet.class);
            operator.setAsyncSupported(true);
            operator.addMapping(settings.path() + "/connections/*", settings.path() + "/records/*",
                    settings.path() + "/cluster");
            LOG.log(Level.INFO, "Baton operator endpoints at {0}{1}/connections, {1}/records and {1}/cluster",
                    context.getContextPath(), settings.path());
        }
        if (settings.console()) { // (which needs the admin key: EndpointSettings)
            ServletRegistration.Dynamic console = context.addServlet(CONSOLE_SERVLET, ConsoleServlet.class);
            console.addMapping(settings.path() + "/console", settings.path() + "/console/*");
            LOG.log(Level.INFO, "Baton operator console at {0}{1}/console", context.getContextPath(), settings.path());
        }
        if (!settings.keysRequired()) {
            LOG.log(Level.WARNING, "Baton endpoint at {0}{1} accepts callers without a gateway key: set "
                    + "baton.endpoint.api-key-sha256 or protect it with a security constraint", context.getContextPath(), mapping);
        } else {
            LOG.log(Level.INFO, "Baton endpoint at {0}{1}", context.getContextPath(), mapping);
        }
    }

    /**
     * Fails a servlet's start with a message saying what is missing, rather than its first request with a
     * {@code NullPointerException}: the container injects servlets registered by class (Servlet and CDI specs), and
     * Baton's servlets depend on it.
     */
    static void requireInjected(Endpoint endpoint, String servlet) throws ServletException {
        if (endpoint == null) {
            throw new UnavailableException(servlet + ": the server did not inject Baton's Endpoint into this servlet "
                    + "(CDI injection into a servlet registered by a ServletContainerInitializer)");
        }
    }
}
