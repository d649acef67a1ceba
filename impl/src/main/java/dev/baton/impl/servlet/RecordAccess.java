package dev.baton.impl.servlet;

import dev.baton.exception.RequestRejectedException;
import dev.baton.impl.config.Redactor;
import dev.baton.record.RequestRecord;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.Objects;
import java.util.Optional;

/**
 * Who reads which record through {@code GET /requests/{id}}. The admin key reads every record, as is. Any other
 * caller reads only the requests sent with its own key: a named key ({@code baton.endpoint.keys.<name>}) the records
 * that name it as their caller; an unnamed key, the container's user or an anonymous caller the requests no named key
 * sent (the record does not tell those callers apart). Another caller's record, and a probe's, answer exactly like a
 * record that does not exist, so a caller cannot learn that an id is in use. What a caller reads has the provider
 * account's identifiers masked in the provider messages ({@link Redactor#maskAccounts}).
 */
final class RecordAccess {

    /** The longest part of a requested id that a 404 repeats. */
    static final int MAX_ECHOED_CHARS = 64;
    /** What {@link GatewayFilter} names the admin key's caller. */
    private static final String ADMIN = "admin";

    private RecordAccess() {
    }

    /**
     * @param caller the request's caller ({@link GatewayFilter#caller}): {@code admin} for the admin key
     * @param key    the caller's named key, or {@code null}
     */
    static Optional<JsonObject> read(Optional<RequestRecord> found, String caller, NamedKey key) {
        boolean admin = ADMIN.equals(caller);
        return found.filter(r -> admin || mayRead(r, key)).map(r -> admin ? Json.record(r) : masked(Json.record(r)));
    }

    private static boolean mayRead(RequestRecord record, NamedKey key) {
        return RequestRecord.REQUEST.equals(record.kind())
                && Objects.equals(record.caller(), key == null ? null : key.name());
    }

    /** The 404 for an id that is unknown, evicted, or not the caller's: one answer for all three. */
    static RequestRejectedException notFound(String id) {
        return Rejections.notFound("No record for request `" + Rejections.shortened(id, MAX_ECHOED_CHARS)
                + "` (unknown, or evicted from the store).");
    }

    /** The record with every attempt's provider message stripped of account identifiers. */
    private static JsonObject masked(JsonObject record) {
        JsonArrayBuilder attempts = Json.array();
        for (JsonValue value : record.getJsonArray("attempts")) {
            JsonObject attempt = value.asJsonObject();
            if (attempt.get("message") instanceof JsonString message) {
                attempt = Json.JSON.createObjectBuilder(attempt)
                        .add("message", Redactor.maskAccounts(message.getString())).build();
            }
            attempts.add(attempt);
        }
        return Json.JSON.createObjectBuilder(record).add("attempts", attempts).build();
    }
}
