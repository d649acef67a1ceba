package dev.baton.impl.servlet;

import org.junit.jupiter.api.Test;

import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GatewayKeysTest {

    private final GatewayKeys keys = new GatewayKeys(List.of(GatewayKeys.sha256("one"), GatewayKeys.sha256("two")));

    @Test
    void namesTheMatchedDigestSoCallersCanBeToldApartWithoutTheKey() {
        assertEquals(HexFormat.of().formatHex(GatewayKeys.sha256("two")), keys.match("Bearer two"));
        assertEquals(HexFormat.of().formatHex(GatewayKeys.sha256("one")), keys.match("bearer one "));
        assertTrue(keys.accepts("Bearer one"));
    }

    @Test
    void refusesAnythingElse() {
        assertNull(keys.match("Bearer three"));
        assertNull(keys.match("Basic one"));
        assertNull(keys.match(null));
        assertFalse(new GatewayKeys(List.of()).accepts("Bearer one"));
        assertFalse(new GatewayKeys(List.of()).required());
    }
}
