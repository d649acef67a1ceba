package dev.baton;

import dev.baton.exception.RequestRejectedException;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import java.io.StringReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** What every request type reads the same way: the JSON text, Baton's own {@code fallbacks} member, the timeout. */
final class RequestFields {

    /** Looked up once: {@code Json.create…} looks the provider up on every call. */
    static final JsonProvider JSON = JsonProvider.provider();

    /** The body field that belongs to Baton and is never sent to a provider. */
    static final String FALLBACKS = "fallbacks";

    private RequestFields() {
    }

    /** @throws RequestRejectedException when the text is not a JSON object */
    static JsonObject parse(String json) {
        try (var reader = JSON.createReader(new StringReader(json))) {
            return reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            throw RequestRejectedException.invalidRequest("the request body is not a JSON object", null);
        }
    }

    /** {@code fallbacks} as a list of model names, empty when absent. */
    static List<String> fallbacks(JsonObject json) {
        Objects.requireNonNull(json, "json");
        List<String> fallbacks = new ArrayList<>();
        JsonValue value = json.get(FALLBACKS);
        if (value != null && value != JsonValue.NULL) {
            if (value.getValueType() != JsonValue.ValueType.ARRAY) {
                throw RequestRejectedException.invalidRequest("fallbacks must be an array of model names", FALLBACKS);
            }
            JsonArray array = value.asJsonArray();
            for (int i = 0; i < array.size(); i++) {
                if (!(array.get(i) instanceof JsonString s)) {
                    throw RequestRejectedException.invalidRequest(
                            "fallbacks[" + i + "] must be a string", FALLBACKS + "[" + i + "]");
                }
                fallbacks.add(s.getString());
            }
        }
        return fallbacks;
    }

    /** {@code json} without Baton's {@code fallbacks} member (the same object when it has none). */
    static JsonObject withoutFallbacks(JsonObject json) {
        return json.containsKey(FALLBACKS) ? JSON.createObjectBuilder(json).remove(FALLBACKS).build() : json;
    }

    /** {@code body} with {@code fallbacks} put back when there are some. */
    static JsonObject withFallbacks(JsonObject body, List<String> fallbacks) {
        if (fallbacks.isEmpty()) {
            return body;
        }
        JsonArrayBuilder array = JSON.createArrayBuilder();
        fallbacks.forEach(array::add);
        return JSON.createObjectBuilder(body).add(FALLBACKS, array).build();
    }

    /** The string member {@code name}, or {@code null}. */
    static String string(JsonObject body, String name) {
        return body.get(name) instanceof JsonString s ? s.getString() : null;
    }

    /** @throws IllegalArgumentException for a zero or negative timeout */
    static Duration timeout(Duration timeout) {
        if (timeout != null && (timeout.isZero() || timeout.isNegative())) {
            throw new IllegalArgumentException("timeout must be > 0 but was " + timeout);
        }
        return timeout;
    }

    /**
     * {@code body} as an OpenAI-compatible client receives it from Baton: {@code model} is the served model and
     * {@code provider}, {@code connection}, {@code route} and {@code route_name} name what served; when the provider
     * reported usage, {@code usage.cost} is the estimate ({@code null} when unpriced) with its {@code price_source}
     * and {@code cost_currency}.
     */
    static JsonObject served(JsonObject body, ServedBy servedBy, Cost cost) {
        var out = JSON.createObjectBuilder(body);
        if (body.get("usage") instanceof JsonObject usage) {
            var priced = JSON.createObjectBuilder(usage);
            if (cost == null) {
                priced.add("cost", JsonValue.NULL);
            } else {
                priced.add("cost", cost.amount()).add("price_source", cost.priceSource())
                        .add("cost_currency", cost.currency());
            }
            out.add("usage", priced);
        }
        return out
                .add("model", servedBy.model())
                .add("provider", servedBy.provider())
                .add("connection", servedBy.connection())
                .add("route", servedBy.position())
                .add("route_name", servedBy.routeName() == null ? JsonValue.NULL : JSON.createValue(servedBy.routeName()))
                .build();
    }
}
