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
    void digestsAreSha256OfTheUtf8BytesEachTimeAfresh() {
        String abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        assertEquals(abc, HexFormat.of().formatHex(GatewayKeys.sha256("abc")));
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                HexFormat.of().formatHex(GatewayKeys.sha256("")));
        assertEquals(abc, HexFormat.of().formatHex(GatewayKeys.sha256("abc")), "no state carried over from a digest");
    }

    @Test
    void onePresentedDigestIsMatchedAgainstEverySet() {
        byte[] presented = GatewayKeys.presented("Bearer two");
        GatewayKeys admin = new GatewayKeys(List.of(GatewayKeys.sha256("root")));
        assertEquals(keys.match("Bearer two"), keys.match(presented));
        assertNull(admin.match(presented));
        assertNull(GatewayKeys.presented("Basic two"));
        assertNull(keys.match((byte[]) null));
    }

    @Test
    void refusesAnythingElse() {
        assertNull(keys.match("Bearer three"));
        assertNull(keys.match("Basic one"));
        assertNull(keys.match((String) null));
        assertFalse(new GatewayKeys(List.of()).accepts("Bearer one"));
        assertFalse(new GatewayKeys(List.of()).required());
    }
}
