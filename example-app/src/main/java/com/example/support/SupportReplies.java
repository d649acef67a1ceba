package com.example.support;

import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.FailoverChatService;
import dev.baton.Route;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** An application bean of your own: it asks route "chat", and Baton picks the account that answers. */
@ApplicationScoped
public class SupportReplies {

    @Inject
    @Route("chat")
    FailoverChatService chat;

    public ChatResponse reply(String question) {
        return chat.complete(ChatRequest.builder()
                .message("system", "You answer customer support questions in two sentences.")
                .message("user", question)
                .build());
    }
}
