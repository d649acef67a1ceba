package dev.baton.system;

import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.FailoverChatService;
import dev.baton.FailoverPolicy;
import dev.baton.Route;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Two identical annotated methods; {@link PoliciesConfig} overrides the second's degraded text. */
@ApplicationScoped
public class PolicyProbe {

    static final String FROM_ANNOTATION = "degraded, as annotated";
    static final String FROM_CONFIG = "degraded, as configured";

    @Inject
    @Route("demo")
    FailoverChatService demo;

    @FailoverPolicy(degraded = FROM_ANNOTATION)
    public ChatResponse annotated() {
        return demo.complete(ChatRequest.builder().message("user", "hi").build());
    }

    @FailoverPolicy(degraded = FROM_ANNOTATION)
    public ChatResponse configured() {
        return demo.complete(ChatRequest.builder().message("user", "hi").build());
    }
}
