package dev.baton.sample;

import dev.baton.FailoverChatService;
import dev.baton.Route;
import dev.baton.exception.RequestRejectedException;
import dev.baton.exception.UpstreamUnavailableException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;

import java.time.temporal.ChronoUnit;

/**
 * Baton under the application's own MicroProfile Fault Tolerance policy, the combination
 * {@code docs/annotations.md} recommends:
 * <ul>
 *   <li>{@code @Retry} only on {@link UpstreamUnavailableException}, the one failure a later try can
 *       cure; Baton has already tried every target, so one or two spaced retries are plenty;</li>
 *   <li>{@code @Timeout} above the route's deadline (20 s), as a backstop only;</li>
 *   <li>{@code @Fallback} for every failure except a rejected request, which is a bug to surface.</li>
 * </ul>
 */
@ApplicationScoped
public class ResilientDrafts {

    static final String WRITE_IT_YOURSELF = "No draft this time: please write the reply yourself.";

    @Inject
    @Route("demo")
    FailoverChatService drafts;

    @Retry(maxRetries = 2, delay = 500, jitter = 0, retryOn = UpstreamUnavailableException.class)
    @Timeout(value = 60, unit = ChronoUnit.SECONDS)
    @Fallback(fallbackMethod = "writeItYourself", skipOn = RequestRejectedException.class)
    public String draft(String topic) {
        return drafts.complete(DraftService.request(topic)).content();
    }

    String writeItYourself(String topic) {
        return WRITE_IT_YOURSELF;
    }
}
