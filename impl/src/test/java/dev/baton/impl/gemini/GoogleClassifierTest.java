package dev.baton.impl.gemini;

import dev.baton.FailureKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** One row per rule of the Google failure table, and the shapes {@link GoogleError} reads. */
class GoogleClassifierTest {

    @ParameterizedTest(name = "[{index}] {0} {1} reason={2} -> {3}")
    @CsvSource(nullValues = "-", delimiter = '|', textBlock = """
            # status | error.status        | ErrorInfo.reason              | kind
            # credential: a key Google refused comes as a 400 on the Gemini API; the reason decides
            400      | INVALID_ARGUMENT    | API_KEY_INVALID               | CREDENTIAL
            400      | INVALID_ARGUMENT    | API_KEY_EXPIRED               | CREDENTIAL
            401      | UNAUTHENTICATED     | ACCESS_TOKEN_EXPIRED          | CREDENTIAL
            401      | UNAUTHENTICATED     | -                             | CREDENTIAL
            403      | PERMISSION_DENIED   | IAM_PERMISSION_DENIED         | CREDENTIAL
            403      | PERMISSION_DENIED   | SERVICE_DISABLED              | CREDENTIAL
            # spend_limit: billing switched off on the project
            403      | PERMISSION_DENIED   | BILLING_DISABLED              | SPEND_LIMIT
            # rate_limit: quotas per minute or per day
            429      | RESOURCE_EXHAUSTED  | -                             | RATE_LIMIT
            0        | RESOURCE_EXHAUSTED  | -                             | RATE_LIMIT
            # model_not_served
            404      | NOT_FOUND           | -                             | MODEL_NOT_SERVED
            # invalid_request: malformed, or a region or tier the API refuses
            400      | INVALID_ARGUMENT    | -                             | INVALID_REQUEST
            400      | FAILED_PRECONDITION | -                             | INVALID_REQUEST
            400      | OUT_OF_RANGE        | -                             | INVALID_REQUEST
            501      | UNIMPLEMENTED       | -                             | INVALID_REQUEST
            # timeout: the deadline ran out at Google
            504      | DEADLINE_EXCEEDED   | -                             | TIMEOUT
            # server_error
            500      | INTERNAL            | -                             | SERVER_ERROR
            503      | UNAVAILABLE         | -                             | SERVER_ERROR
            500      | UNKNOWN             | -                             | SERVER_ERROR
            409      | ABORTED             | -                             | SERVER_ERROR
            0        | INTERNAL            | -                             | SERVER_ERROR
            # no Google status (a proxy's page): the HTTP status decides
            429      | -                   | -                             | RATE_LIMIT
            401      | -                   | -                             | CREDENTIAL
            404      | -                   | -                             | MODEL_NOT_SERVED
            504      | -                   | -                             | TIMEOUT
            502      | -                   | -                             | SERVER_ERROR
            0        | -                   | -                             | SERVER_ERROR
            413      | -                   | -                             | INVALID_REQUEST
            # a status added after this code: the HTTP status decides
            503      | SOMETHING_NEW       | -                             | SERVER_ERROR
            """)
    void classifies(int status, String googleStatus, String reason, FailureKind kind) {
        assertEquals(kind, GoogleClassifier.classify(status, googleStatus, reason));
    }

    @Test
    void readsAnErrorWrappedInAOneElementArrayWithItsReasonAndRetryDelay() {
        GoogleError error = GoogleError.parse("""
                [{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).",
                  "status":"RESOURCE_EXHAUSTED","details":[
                    {"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[]},
                    {"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMIT_EXCEEDED"},
                    {"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"23.5s"}]}}]
                """);

        assertEquals(new GoogleError(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).",
                "RATE_LIMIT_EXCEEDED", Duration.ofMillis(23_500)), error);
    }

    @Test
    void otherShapesAreNoGoogleError() {
        assertNull(GoogleError.parse("{\"error\":{\"type\":\"invalid_request_error\",\"code\":\"x\"}}"));
        assertNull(GoogleError.parse("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}"));
        assertNull(GoogleError.parse("<html>502 Bad Gateway</html>"));
        assertNull(GoogleError.parse("[{\"error\":{\"code\":1,\"status\":\"INTERNAL\"}},{}]"));
        assertNull(GoogleError.parse(""));
    }

    @Test
    void readsProtobufDurations() {
        assertEquals(Duration.ofSeconds(7), GoogleError.protoDuration("7s"));
        assertEquals(Duration.ofNanos(1_234_567), GoogleError.protoDuration("0.001234567s"));
        assertNull(GoogleError.protoDuration("7"));
        assertNull(GoogleError.protoDuration("-1s"));
    }
}
