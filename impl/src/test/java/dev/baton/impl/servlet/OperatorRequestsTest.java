package dev.baton.impl.servlet;

import dev.baton.exception.RequestRejectedException;
import dev.baton.impl.record.RecordQuery;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OperatorRequestsTest {

    private static final Set<String> CONNECTIONS = Set.of("primary", "standby");

    @Test
    void aFullRecordQuery() {
        RecordQuery q = query("from", "2026-03-01T12:00:00Z", "to", "2026-03-01T14:00:00+01:00", "connection", "primary",
                "outcome", "error", "limit", "20");
        assertEquals(Instant.parse("2026-03-01T12:00:00Z"), q.from());
        assertEquals(Instant.parse("2026-03-01T13:00:00Z"), q.to(), "an offset is accepted too");
        assertEquals("primary", q.connection());
        assertEquals("error", q.outcome());
        assertEquals(20, q.limit());
    }

    @Test
    void noParametersListTheNewestHundred() {
        RecordQuery q = query();
        assertNull(q.from());
        assertNull(q.connection());
        assertEquals(OperatorRequests.DEFAULT_LIMIT, q.limit());
    }

    @Test
    void everyBadParameterIsA400NamingIt() {
        assertParam("from", "from", "yesterday");
        assertParam("to", "to", "2026-13-01T00:00:00Z");
        assertParam("connection", "connection", "nope");
        assertParam("outcome", "outcome", "fine");
        assertParam("limit", "limit", "0");
        assertParam("limit", "limit", "1001");
        assertParam("limit", "limit", "ten");
        assertParam("conection", "conection", "primary");
        assertParam("from", "from", "2026-03-01T12:00:00Z", "to", "2026-03-01T12:00:00Z");
    }

    @Test
    void aRepeatedParameterIsRefused() {
        Map<String, String[]> params = Map.of("connection", new String[] {"primary", "standby"});
        RequestRejectedException e = assertThrows(RequestRejectedException.class,
                () -> OperatorRequests.recordQuery(params, CONNECTIONS));
        assertEquals("connection", e.param());
    }

    @Test
    void anEmptyEjectionBodyUsesTheCoolOff() {
        OperatorRequests.Ejection e = OperatorRequests.ejection(new byte[0], Duration.ofSeconds(30));
        assertEquals(Duration.ofSeconds(30), e.duration());
        assertEquals("operator request", e.reason());
    }

    @Test
    void aLongCoolOffIsCappedAtADay() {
        assertEquals(Duration.ofHours(24), OperatorRequests.ejection(new byte[0], Duration.ofDays(3)).duration());
    }

    @Test
    void anEjectionForAndReason() {
        OperatorRequests.Ejection e = OperatorRequests.ejection(body("{\"for\": \"10m\", \"reason\": \"rotating the key\"}"),
                Duration.ofSeconds(30));
        assertEquals(Duration.ofMinutes(10), e.duration());
        assertEquals("rotating the key", e.reason());
        assertEquals(Duration.ofHours(24), OperatorRequests.ejection(body("{\"for\": \"24h\"}"), Duration.ZERO).duration());
    }

    @Test
    void badEjectionBodiesAre400sNamingTheField() {
        assertMember("for", "{\"for\": \"10 minutes\"}");
        assertMember("for", "{\"for\": \"25h\"}");
        assertMember("for", "{\"for\": \"0s\"}");
        assertMember("for", "{\"for\": 600}");
        assertMember("reason", "{\"reason\": \"\"}");
        assertMember("reason", "{\"reason\": \"two\\nlines\"}");
        assertMember("reason", "{\"reason\": \"" + "x".repeat(201) + "\"}");
        assertMember("duration", "{\"duration\": \"10m\"}");
        assertMember(null, "[\"10m\"]");
        assertMember(null, "{\"for\": ");
    }

    private static void assertMember(String member, String json) {
        RequestRejectedException e = assertThrows(RequestRejectedException.class,
                () -> OperatorRequests.ejection(body(json), Duration.ofSeconds(30)), json);
        assertEquals(400, e.httpStatus());
        assertEquals(member, e.param(), json);
        if (member != null) {
            assertTrue(e.getMessage().startsWith(member + ":"), e.getMessage());
        }
    }

    private static void assertParam(String param, String... pairs) {
        RequestRejectedException e = assertThrows(RequestRejectedException.class, () -> query(pairs));
        assertEquals(400, e.httpStatus());
        assertEquals(param, e.param());
        assertTrue(e.getMessage().startsWith(param + ":"), e.getMessage());
    }

    private static RecordQuery query(String... pairs) {
        Map<String, String[]> params = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            params.put(pairs[i], new String[] {pairs[i + 1]});
        }
        return OperatorRequests.recordQuery(params, CONNECTIONS);
    }

    private static byte[] body(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }
}
