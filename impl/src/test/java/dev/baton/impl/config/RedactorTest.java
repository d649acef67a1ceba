package dev.baton.impl.config;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RedactorTest {

    private static final String CONFIGURED = "proxy-key-7f3a9c21d4";

    private final Redactor redactor = new Redactor(List.of(CONFIGURED));

    @Test
    void removesConfiguredKeys() {
        String out = redactor.clean("upstream rejected " + CONFIGURED + " for this org");
        assertFalse(out.contains(CONFIGURED), out);
        assertEquals("upstream rejected <redacted> for this org", out);
    }

    @Test
    void removesKeyShapedValues() {
        String out = redactor.clean("Incorrect API key provided: sk-proj-AbC123xyz_9-QQ. You can find your key...");
        assertFalse(out.contains("AbC123xyz"), out);
        assertTrue(out.startsWith("Incorrect API key provided: <redacted>"), out);
    }

    @Test
    void removesBearerTokens() {
        String out = redactor.clean("header was Authorization: Bearer eyJhbGciOi.payload.sig== here");
        assertFalse(out.contains("eyJhbGciOi"), out);
        assertTrue(out.contains("<redacted>"), out);
        assertTrue(redactor.clean("bearer abc123def").contains("<redacted>"));
    }

    @Test
    void removesApiKeyAssignments() {
        String out = redactor.clean("request had api_key=abcdef0123456789 in it");
        assertFalse(out.contains("abcdef0123456789"), out);
    }

    @Test
    void ignoresConfiguredValuesTooShortToBeKeys() {
        Redactor r = new Redactor(List.of("error"));
        assertEquals("server error", r.clean("server error"));
    }

    @Test
    void boundsTheLength() {
        String out = redactor.clean("x".repeat(2000));
        assertEquals(501, out.length());
        assertTrue(out.endsWith("…"));
        assertEquals("short", redactor.clean("short"));
    }

    @Test
    void removesCarriageReturnsAndLineFeeds() {
        String out = redactor.clean("line one\r\nInjected: header\nline three\rend");
        assertFalse(out.contains("\r") || out.contains("\n"), out);
        assertEquals("line one Injected: header line three end", out);
    }

    @Test
    void nullStaysNull() {
        assertNull(redactor.clean(null));
    }
}
