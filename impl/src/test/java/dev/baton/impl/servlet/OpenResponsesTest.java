package dev.baton.impl.servlet;

import jakarta.servlet.ServletContext;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OpenResponsesTest {

    /** A servlet context that only keeps attributes. */
    private static ServletContext application() {
        Map<String, Object> attributes = new HashMap<>();
        return (ServletContext) Proxy.newProxyInstance(OpenResponsesTest.class.getClassLoader(),
                new Class<?>[] {ServletContext.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getAttribute" -> attributes.get((String) args[0]);
                    case "setAttribute" -> attributes.put((String) args[0], args[1]);
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void theResponsesOfOneApplicationCountTogetherAndAnotherApplicationsApart() {
        ServletContext application = application();
        OpenResponses first = OpenResponses.of(application);
        assertSame(first, OpenResponses.of(application));
        assertNotSame(first, OpenResponses.of(application()));
    }

    @Test
    void quietWhileNoMoreAreOpenThanAllowed() {
        OpenResponses open = new OpenResponses(1);
        open.opened();
        assertTrue(open.quiet());
        open.opened();
        assertFalse(open.quiet());
        open.closed();
        assertTrue(open.quiet());
    }
}
