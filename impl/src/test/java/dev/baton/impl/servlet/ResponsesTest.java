package dev.baton.impl.servlet;

import dev.baton.wire.RawJsonObject;
import dev.baton.ChatResponse;
import dev.baton.Cost;
import dev.baton.FailureKind;
import dev.baton.ServedBy;
import dev.baton.exception.RequestRejectedException;
import dev.baton.exception.UpstreamFailedException;
import dev.baton.exception.UpstreamUnavailableException;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;
import dev.baton.record.SkippedTarget;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResponsesTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

    private static JsonObject error(Answer answer) {
        return Json.createReader(new StringReader(new String(answer.body(), StandardCharsets.UTF_8))).readObject()
                .getJsonObject("error");
    }

    @Test
    void aFinalErrorListsEveryAttemptThenEverySkipAsDataWithoutProviderMessages() {
        RequestRecord record = new RequestRecord("req_1", NOW, false, 502, "upstream_error", "chat", "chat", null,
                List.of(new AttemptRecord("a/gpt", "a", "openai", "gpt", "primary", 0, NOW, 41, FailureKind.SERVER_ERROR,
                                503, "service_unavailable_error", "server_is_overloaded",
                                "the prompt 'my secret plan' was too much", null, false, false),
                        new AttemptRecord("b/org/model", "b", "openai", "org/model", "standby_a", 0, NOW, 5,
                                FailureKind.CONNECTION, 0, null, null, "refused", null, false, false)),
                List.of(new SkippedTarget("c/gpt", "standby_b", "ejected for 27s more")),
                false, false, null, 60, null, false, null, null, RequestRecord.REQUEST);
        UpstreamFailedException e = new UpstreamUnavailableException("No target could serve the request.", 502,
                "server_error", "upstream_error", null, Duration.ofMillis(2_300), record);

        Answer answer = Responses.failure(e, "req_fallback");

        assertEquals("true", answer.headers().get("x-should-retry"));
        assertEquals("3", answer.headers().get("retry-after"), "whole seconds, rounded up");
        assertEquals("2300", answer.headers().get("retry-after-ms"));
        JsonArray attempts = error(answer).getJsonArray("attempts");
        assertEquals(3, attempts.size());
        JsonObject first = attempts.getJsonObject(0);
        assertEquals("a", first.getString("connection"));
        assertEquals("gpt", first.getString("model"));
        assertEquals("primary", first.getString("position"));
        assertEquals("server_error", first.getString("kind"));
        assertEquals(503, first.getInt("status"));
        assertEquals("server_is_overloaded", first.getString("provider_code"));
        assertEquals(41, first.getInt("duration_ms"));
        assertTrue(first.isNull("reason"));
        JsonObject second = attempts.getJsonObject(1);
        assertEquals("org/model", second.getString("model"), "a model name may hold a slash");
        assertTrue(second.isNull("status"), "no response came");
        JsonObject skipped = attempts.getJsonObject(2);
        assertEquals("c", skipped.getString("connection"));
        assertEquals("skipped", skipped.getString("kind"));
        assertEquals("ejected for 27s more", skipped.getString("reason"));
        assertFalse(new String(answer.body(), StandardCharsets.UTF_8).contains("secret plan"),
                "a provider's message may quote the prompt: it stays in the record");
    }

    @Test
    void aProvidersAnswerIsWrittenAsToJsonWouldWriteIt() {
        String provider = "{\"id\":\"c1\",\"model\":\"gpt-4o-2024-08-06\",\"provider\":\"theirs\",\"choices\":"
                + "[{\"message\":{\"content\":\"h\\u00e9\"}}], \"usage\":{\"total_tokens\":3}}";
        for (ServedBy by : List.of(new ServedBy("gpt-4o", "openai", "primary", "0", "chat"),
                new ServedBy("m\"x", "openai", "standby", "1.0", null))) {
            ChatResponse answer = new ChatResponse(RawJsonObject.parse(provider), by, "req_1", null, null);

            JsonObject written = Json.createReader(new StringReader(new String(Responses.body(answer),
                    StandardCharsets.UTF_8))).readObject();

            assertEquals(answer.toJson(), written);
        }
    }

    @Test
    void theCostIsSplicedIntoTheProvidersUsageAsToJsonWouldWriteIt() {
        // A provider's own usage.cost (some aggregators send one) is replaced, never written twice.
        String provider = "{\"id\":\"c1\",\"model\":\"m\",\"choices\":[],\"usage\":{\"prompt_tokens\":214,"
                + "\"completion_tokens\":96,\"cost\":9,\"total_tokens\":310}}";
        ServedBy by = new ServedBy("m", "openai", "primary", "primary", null);
        for (Cost cost : java.util.Arrays.asList(new Cost(new BigDecimal("0.00044"), "USD", "list"),
                new Cost(new BigDecimal("1.5E-7"), "EUR", "custom"), null)) {
            ChatResponse answer = new ChatResponse(RawJsonObject.parse(provider), by, "req_1", null, cost);

            String text = new String(Responses.body(answer), StandardCharsets.UTF_8);
            JsonObject written = Json.createReader(new StringReader(text)).readObject();

            assertEquals(answer.toJson(), written);
            assertEquals(1, text.split("\"cost\"", -1).length - 1, text);
            JsonObject usage = written.getJsonObject("usage");
            assertEquals(310, usage.getInt("total_tokens"));
            if (cost == null) {
                assertEquals(jakarta.json.JsonValue.NULL, usage.get("cost"));
                assertFalse(usage.containsKey("price_source"));
            } else {
                assertEquals(0, cost.amount().compareTo(usage.getJsonNumber("cost").bigDecimalValue()));
                assertEquals(cost.priceSource(), usage.getString("price_source"));
                assertEquals(cost.currency(), usage.getString("cost_currency"));
            }
        }
    }

    @Test
    void aRefusalHasAnEmptyAttemptsListAndNoRetryHint() {
        Answer answer = Responses.failure(RequestRejectedException.unknownModel("nope"), "req_2");

        assertEquals(List.of(), error(answer).getJsonArray("attempts"));
        assertEquals("false", answer.headers().get("x-should-retry"));
        assertFalse(answer.headers().containsKey("retry-after"));
        assertFalse(answer.headers().containsKey("retry-after-ms"));
    }
}
