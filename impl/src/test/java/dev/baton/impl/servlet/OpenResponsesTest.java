package dev.baton.impl.servlet;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OpenResponsesTest {

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
