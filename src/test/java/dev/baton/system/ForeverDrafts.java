package dev.baton.system;

import dev.baton.FailoverChatService;
import dev.baton.FailoverPolicy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Deployed only by {@link InvalidPolicyIT}: "forever" is not a duration, so the deployment must fail. */
@ApplicationScoped
public class ForeverDrafts {

    @Inject
    @FailoverPolicy(deadline = "forever")
    FailoverChatService chat;
}
