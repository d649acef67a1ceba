package dev.baton.bedrock;

import dev.baton.FailureKind;

import java.util.Locale;

/**
 * The Bedrock failure table: HTTP status and exception name ({@code x-amzn-ErrorType}, {@code __type}, or a stream
 * exception frame's {@code :exception-type}) to a {@link FailureKind}. A pure function. Exception names decide first,
 * matched without case (a stream says {@code throttlingException}, a response {@code ThrottlingException}); the
 * status decides what no known name does.
 */
public final class BedrockClassifier {

    private BedrockClassifier() {
    }

    /**
     * @param status  the HTTP status, or 0 for an exception frame inside a stream that had answered 200
     * @param type    the exception name without namespace or URL, or {@code null}
     * @param message the message, or {@code null}; not read today (ValidationException's "Input is too long" is an
     *                invalid request like any other: Baton has no context-length kind of its own)
     */
    public static FailureKind classify(int status, String type, String message) {
        String name = type == null ? "" : type.toLowerCase(Locale.ROOT);
        switch (name) {
            case "throttlingexception":
                return FailureKind.RATE_LIMIT;
            // A service quota (tokens or requests per minute or day, on-demand) is a throughput limit that resets:
            // AWS says to resubmit later. Bedrock has no spend cap: AWS bills, it does not cut an account off.
            case "servicequotaexceededexception":
                return FailureKind.RATE_LIMIT;
            // 503, 500, 424, 429 model still loading, and a stream's own model error: the next try may well work.
            case "serviceunavailableexception", "internalserverexception", "modelerrorexception",
                    "modelnotreadyexception", "modelstreamerrorexception", "internalfailure":
                return FailureKind.SERVER_ERROR;
            case "modeltimeoutexception":
                return FailureKind.TIMEOUT;
            case "validationexception":
                return FailureKind.INVALID_REQUEST;
            // The key is unknown, the signature or token wrong or expired: no model on this connection will work.
            case "unrecognizedclientexception", "invalidsignatureexception", "expiredtokenexception",
                    "missingauthenticationtokenexception", "incompletesignatureexception",
                    "invalidclienttokenid", "signaturedoesnotmatch":
                return FailureKind.CREDENTIAL;
            // AccessDeniedException is Bedrock's answer for a model whose access was not granted in this account
            // or region, or that the role's policy does not cover: the credential works for the connection's other
            // models, so only this model fails over and goes last on this connection (model_not_served), rather
            // than the whole connection being taken out (credential).
            case "accessdeniedexception":
            case "resourcenotfoundexception":
                return FailureKind.MODEL_NOT_SERVED;
            default:
                break;
        }
        if (status == 0) {
            return FailureKind.SERVER_ERROR; // an exception frame of a type this code does not know
        }
        if (status == 429) {
            return FailureKind.RATE_LIMIT;
        }
        if (status == 401 || status == 403) {
            return FailureKind.CREDENTIAL;
        }
        if (status == 404) {
            return FailureKind.MODEL_NOT_SERVED;
        }
        if (status == 408) {
            return FailureKind.TIMEOUT;
        }
        if (status == 409 || status == 424 || status >= 500) {
            return FailureKind.SERVER_ERROR;
        }
        return FailureKind.INVALID_REQUEST;
    }

    /**
     * The exception name in {@code x-amzn-ErrorType} ({@code ThrottlingException:http://internal.amazon.com/…}) or
     * {@code __type} ({@code com.amazon.coral.service#UnrecognizedClientException}); null for none.
     */
    static String exceptionName(String raw) {
        if (raw == null || raw.isBlank()) {
            return null;
        }
        String name = raw.strip();
        int colon = name.indexOf(':');
        if (colon >= 0) {
            name = name.substring(0, colon);
        }
        int hash = name.lastIndexOf('#');
        if (hash >= 0) {
            name = name.substring(hash + 1);
        }
        return name.isEmpty() ? null : name;
    }
}
