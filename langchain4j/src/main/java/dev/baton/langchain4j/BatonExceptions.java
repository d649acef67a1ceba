package dev.baton.langchain4j;

import dev.baton.FailureKind;
import dev.baton.exception.FailoverException;
import dev.baton.exception.StreamInterruptedException;
import dev.baton.record.AttemptRecord;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.ContentFilteredException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.LangChain4jException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.NonRetriableException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.TimeoutException;

import java.util.List;
import java.util.Objects;

/**
 * Baton's failures as LangChain4j's exception types, each keeping the {@link FailoverException} as
 * its cause: {@code retryable()}, {@code retryAfter()} and the record stay one {@code getCause()}
 * away. The type follows LangChain4j's retriable / non-retriable split, which is Baton's
 * {@code retryable()}: a spend limit is a 429 that waiting does not fix, so it is not a
 * {@link RateLimitException}. The table is in {@code docs/langchain4j.md}.
 */
final class BatonExceptions {

    private BatonExceptions() {
    }

    /** The LangChain4j exception for {@code failure}; anything that is not Baton's is returned unchanged. */
    static RuntimeException toLangChain4j(Throwable failure) {
        if (!(failure instanceof FailoverException e)) {
            return failure instanceof RuntimeException r ? r : new LangChain4jException(failure);
        }
        String message = e.getMessage();
        if (e instanceof StreamInterruptedException) {
            return code(e, "stream_idle_timeout") ? new TimeoutException(message, e) : new InternalServerException(message, e);
        }
        if ("content_policy_violation".equals(e.code())) {
            return new ContentFilteredException(message, e);
        }
        // Baton reports a chain of refused keys or unknown models as a 502/503 (another target might have
        // served); when every attempt failed the same way, the caller's problem has a name.
        FailureKind everyAttempt = everyAttemptFailedWith(e);
        if (everyAttempt == FailureKind.CREDENTIAL) {
            return new AuthenticationException(message, e);
        }
        if (everyAttempt == FailureKind.MODEL_NOT_SERVED) {
            return new ModelNotFoundException(message, e);
        }
        return switch (e.httpStatus()) {
            case 401, 403 -> new AuthenticationException(message, e);
            case 404 -> new ModelNotFoundException(message, e);
            case 408, 504 -> new TimeoutException(message, e);
            case 429 -> e.retryable() ? new RateLimitException(message, e) : new NonRetriableException(message, e);
            case 400, 413, 422 -> new InvalidRequestException(message, e);
            default -> {
                if (e.httpStatus() >= 500) {
                    yield e.retryable() ? new InternalServerException(message, e) : new NonRetriableException(message, e);
                }
                yield e.retryable() ? new LangChain4jException(message, e) : new NonRetriableException(message, e);
            }
        };
    }

    /** The one kind every failed attempt of the request had, or {@code null}. */
    private static FailureKind everyAttemptFailedWith(FailoverException e) {
        List<FailureKind> kinds = e.record().map(r -> r.attempts().stream().map(AttemptRecord::kind)
                .filter(Objects::nonNull).distinct().toList()).orElse(List.of());
        return kinds.size() == 1 ? kinds.get(0) : null;
    }

    private static boolean code(FailoverException e, String code) {
        return code.equals(e.code());
    }
}
