package dev.baton.sample;

import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.FailoverChatService;
import dev.baton.FailoverPolicy;
import dev.baton.Route;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** A CDI bean that drafts support replies through the route {@code demo}, blocking. */
@ApplicationScoped
public class DraftService {

    /** Bound to the route configured in {@code META-INF/microprofile-config.properties}. */
    @Inject
    @Route("demo")
    FailoverChatService drafts;

    /** Drafts a reply about {@code topic}; throws a {@code FailoverException} when no target could serve. */
    public ChatResponse draft(String topic) {
        return drafts.complete(request(topic));
    }

    /**
     * The same draft, but when no target can serve the caller gets a marked, degraded answer
     * ({@link ChatResponse#degraded()}) instead of an exception, and Baton gives up after 10 s.
     */
    @FailoverPolicy(deadline = "10s", degraded = "Drafting is temporarily unavailable. Please write this reply yourself.")
    public ChatResponse draftOrNotice(String topic) {
        return drafts.complete(request(topic));
    }

    /** A request for a route-bound service: no {@code model}, the route decides. */
    static ChatRequest request(String topic) {
        return ChatRequest.builder()
                .message("system", "You draft short, friendly replies for a support team.")
                .message("user", "Draft a reply to a customer asking about: " + topic)
                .build();
    }
}
