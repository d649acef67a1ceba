package dev.baton.impl.servlet;

import org.junit.jupiter.api.Test;

import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

class GatewayKeysTest {

    private final GatewayKeys keys = new GatewayKeys(List.of(GatewayKeys.sha256("one"), GatewayKeys.sha256("two")));

    @Test
    void namesTheMatchedDigestSoCallersCanBeToldApartWithoutTheKey() {
        assertEquals(HexFormat.of().formatHex(GatewayKeys.sha256("two")), match(keys, "Bearer two"));
        assertEquals(HexFormat.of().formatHex(GatewayKeys.sha256("one")), match(keys, "bearer one "));
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
        assertEquals(HexFormat.of().formatHex(GatewayKeys.sha256("two")), keys.match(presented));
        assertNull(admin.match(presented));
    }

    @Test
    void refusesAnythingElse() {
        assertNull(match(keys, "Bearer three"));
        assertNull(match(keys, "Basic one"));
        assertNull(GatewayKeys.presented("Basic one"));
        assertNull(match(keys, null));
        assertNull(match(new GatewayKeys(List.of()), "Bearer one"));
        assertFalse(new GatewayKeys(List.of()).required());
    }

    private static String match(GatewayKeys keys, String authorization) {
        return keys.match(GatewayKeys.presented(authorization));
    }
}
