package dev.baton;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

class ChatRequestTest {

    @Test
    void withStreamCopiesTheBodyOnlyWhenTheFlagChanges() {
        ChatRequest streaming = ChatRequest.fromJson(parse(
                "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"));
        assertSame(streaming, streaming.withStream(true));

        ChatRequest whole = streaming.withStream(false);
        assertNotSame(streaming, whole);
        assertEquals(false, whole.body().getBoolean("stream"));
        assertEquals(streaming.body().get("messages"), whole.body().get("messages"));

        ChatRequest unset = ChatRequest.of("m", "hi");
        assertEquals(true, unset.withStream(true).body().getBoolean("stream"));
    }

    private static JsonObject parse(String json) {
        try (var reader = Json.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }
}
