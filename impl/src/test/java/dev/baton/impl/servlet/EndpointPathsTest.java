package dev.baton.impl.servlet;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EndpointPathsTest {

    @Test
    void chatPathsAndTheirMethods() {
        assertEquals(List.of("POST"), EndpointPaths.chat("/chat/completions"));
        assertEquals(List.of("GET", "HEAD"), EndpointPaths.chat("/models"));
        assertEquals(List.of("GET", "HEAD"), EndpointPaths.chat("/requests/req_1"));
        assertTrue(EndpointPaths.chat("/requests/").isEmpty());
        assertTrue(EndpointPaths.chat("/chat/completions/").isEmpty());
        assertTrue(EndpointPaths.chat("/connections").isEmpty(), "an operator path without an admin key");
        assertTrue(EndpointPaths.chat("").isEmpty());
    }

    @Test
    void operatorPathsSplitAsTheServletSplitsThem() {
        assertEquals(List.of("GET", "HEAD"), EndpointPaths.operator("/connections"));
        assertEquals(List.of("GET", "HEAD"), EndpointPaths.operator("/connections/"));
        assertEquals(List.of("GET", "HEAD"), EndpointPaths.operator("/connections/primary"));
        assertEquals(List.of("POST"), EndpointPaths.operator("/connections/primary/eject"));
        assertEquals(List.of("POST"), EndpointPaths.operator("/connections/primary/restore"));
        assertEquals(List.of("GET", "HEAD"), EndpointPaths.operator("/records"));
        assertEquals(List.of("GET", "HEAD"), EndpointPaths.operator("/cluster"));
        assertTrue(EndpointPaths.operator("/records/x").isEmpty());
        assertTrue(EndpointPaths.operator("/connections/primary/drop").isEmpty());
        assertTrue(EndpointPaths.operator("/connections//primary").isEmpty());
    }

    @Test
    void allowListsOptionsToo() {
        assertEquals("GET, HEAD, OPTIONS", EndpointPaths.allow(EndpointPaths.operator("/records")));
    }

    @Test
    void aLongPathIsQuotedShort() {
        String quoted = EndpointPaths.quoted("/v1/requests/" + "a".repeat(100_000));
        assertTrue(quoted.length() < 250, quoted);
        assertTrue(quoted.endsWith("(100013 characters)"), quoted);
        assertEquals("/v1/models", EndpointPaths.quoted("/v1/models"));
    }
}
