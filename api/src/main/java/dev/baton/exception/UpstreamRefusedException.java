package dev.baton.exception;

import dev.baton.record.RequestRecord;

/**
 * The providers refused the request in a way that sending it again will not change: a moderation
 * refusal, a body every provider rejected as invalid, a spend limit, no configured target able to
 * serve it. The type to name in {@code @Retry(abortOn = ...)}.
 */
public final class UpstreamRefusedException extends UpstreamFailedException {

    /**
     * Baton throws it; an application constructs one only to stand in for Baton in its own tests.
     *
     * @param status the HTTP status a client sees; {@code type}, {@code code} and {@code param} as OpenAI's
     *               {@code error} object has them ({@code param} may be {@code null})
     * @param record every attempt made
     */
    public UpstreamRefusedException(String message, int status, String type, String code, String param,
                             RequestRecord record) {
        super(message, status, type, code, param, null, false, record);
    }
}
