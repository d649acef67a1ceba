package dev.baton.sample;

import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.FailoverChatService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** A CDI bean that drafts support replies through the route {@code demo}, blocking. */
@ApplicationScoped
public class DraftService {

    /** The route configured in {@code META-INF/microprofile-config.properties}. */
    static final String ROUTE = "demo";

    @Inject
    FailoverChatService chat;

    /** Drafts a reply about {@code topic}; throws a {@code FailoverException} when no target could serve. */
    public ChatResponse draft(String topic) {
        return chat.complete(request(topic));
    }

    static ChatRequest request(String topic) {
        return ChatRequest.builder()
                .model(ROUTE)
                .message("system", "You draft short, friendly replies for a support team.")
                .message("user", "Draft a reply to a customer asking about: " + topic)
                .build();
    }
}
