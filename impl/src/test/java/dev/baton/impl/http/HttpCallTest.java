package dev.baton.impl.http;

import dev.baton.spi.ProviderTransport.Request;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class HttpCallTest {

    @Test
    void printsNeitherTheKeyNorThePrompt() {
        Request call = Request.post(URI.create("https://api.example.com/v1/chat/completions"),
                Map.of("Authorization", "Bearer sk-proj-secret", "x-api-key", "sk-ant-secret"),
                "{\"messages\":[{\"role\":\"user\",\"content\":\"my private question\"}]}");

        assertEquals("POST https://api.example.com/v1/chat/completions", call.toString());
    }
}
