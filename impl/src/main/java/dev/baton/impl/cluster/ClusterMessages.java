package dev.baton.impl.cluster;

import dev.baton.impl.health.ConnectionHealth;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.spi.JsonProvider;

import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;

/** A {@link ClusterChange} as the JSON text nodes exchange; instants and durations in milliseconds. */
final class ClusterMessages {

    private static final JsonProvider JSON = JsonProvider.provider();

    private ClusterMessages() {
    }

    static String write(ClusterChange c) {
        ConnectionHealth.Shared s = c.state();
        JsonObjectBuilder b = JSON.createObjectBuilder()
                .add("v", 1)
                .add("node", c.node())
                .add("seq", c.sequence())
                .add("at", c.at().toEpochMilli())
                .add("connection", c.connection())
                .add("event", c.event())
                .add("state", s.state());
        millis(b, "ejectedUntil", s.ejectedUntil());
        text(b, "ejectedBy", s.ejectedBy());
        text(b, "ejectReason", s.ejectReason());
        if (s.probeInterval() != null) {
            b.add("probeInterval", s.probeInterval().toMillis());
        }
        if (s.coolOff() != null) {
            b.add("coolOff", s.coolOff().toMillis());
        }
        millis(b, "parkedUntil", s.parkedUntil());
        text(b, "parkCause", s.parkCause());
        return b.build().toString();
    }

    static ClusterChange read(String text) {
        JsonObject o = JSON.createReader(new StringReader(text)).readObject();
        ConnectionHealth.Shared state = new ConnectionHealth.Shared(o.getString("state"), instant(o, "ejectedUntil"),
                o.getString("ejectedBy", null), o.getString("ejectReason", null), duration(o, "probeInterval"),
                duration(o, "coolOff"), instant(o, "parkedUntil"), o.getString("parkCause", null));
        return new ClusterChange(o.getString("node"), o.getJsonNumber("seq").longValue(),
                Instant.ofEpochMilli(o.getJsonNumber("at").longValue()), o.getString("connection"),
                o.getString("event"), state, null);
    }

    private static void millis(JsonObjectBuilder b, String name, Instant value) {
        if (value != null) {
            b.add(name, value.toEpochMilli());
        }
    }

    private static void text(JsonObjectBuilder b, String name, String value) {
        if (value != null) {
            b.add(name, value);
        }
    }

    private static Instant instant(JsonObject o, String name) {
        return o.containsKey(name) && !o.isNull(name) ? Instant.ofEpochMilli(o.getJsonNumber(name).longValue()) : null;
    }

    private static Duration duration(JsonObject o, String name) {
        return o.containsKey(name) && !o.isNull(name) ? Duration.ofMillis(o.getJsonNumber(name).longValue()) : null;
    }
}
