package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Which caller key a sticky route keeps on one target. */
class SessionKeyTest {

    private static ChatRequest.Builder chat() {
        return ChatRequest.builder().model("chat").message("user", "hi");
    }

    @Test
    void theCallersSessionWinsThenPromptCacheKeyThenUserThenSafetyIdentifier() {
        assertEquals("s", Planner.sessionKey(chat().session("s").param("prompt_cache_key", "p").param("user", "u").build()));
        assertEquals("p", Planner.sessionKey(chat().param("prompt_cache_key", "p").param("user", "u").build()));
        assertEquals("u", Planner.sessionKey(chat().param("user", "u").param("safety_identifier", "i").build()));
        assertEquals("i", Planner.sessionKey(chat().param("safety_identifier", "i").build()));
        assertNull(Planner.sessionKey(chat().param("user", " ").build()), "a blank field names no session");
        assertNull(Planner.sessionKey(chat().session(" ").build()));
    }

    @Test
    void theSessionTravelsBesideTheBodyNeverInIt() {
        ChatRequest request = chat().session("s").build().withStream(true).withTimeout(java.time.Duration.ofSeconds(3));
        assertEquals("s", request.session().orElseThrow());
        assertNull(request.body().get("session"));
        assertEquals(false, request.toString().contains("s]"), request.toString());
    }
}
