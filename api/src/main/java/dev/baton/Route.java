package dev.baton;

import jakarta.enterprise.util.AnnotationLiteral;
import jakarta.enterprise.util.Nonbinding;
import jakarta.inject.Qualifier;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Binds an injected {@link FailoverChatService} to one configured route:
 *
 * <pre>{@code
 * @Inject @Route("support-drafts") FailoverChatService drafts;
 * }</pre>
 *
 * <p>Every request sent through the bound service goes to the route; a request may leave
 * {@code model} out, and one that names anything other than the route is refused with
 * {@link dev.baton.exception.RequestRejectedException} (400). A route that is not configured
 * ({@code baton.routes.<name>.targets}) fails the deployment, naming the injection point.
 */
@Qualifier
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD, ElementType.TYPE})
public @interface Route {

    /** The route's name, as in {@code baton.routes.<name>.targets}. */
    @Nonbinding
    String value();

    /** For programmatic lookup: {@code CDI.current().select(FailoverChatService.class, Route.Literal.of("x"))}. */
    final class Literal extends AnnotationLiteral<Route> implements Route {
        private static final long serialVersionUID = 1L;
        private final String value;

        private Literal(String value) {
            this.value = value;
        }

        public static Literal of(String route) {
            return new Literal(route);
        }

        @Override
        public String value() {
            return value;
        }
    }
}
