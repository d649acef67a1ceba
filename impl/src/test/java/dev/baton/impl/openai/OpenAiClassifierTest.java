package dev.baton.impl.openai;

import dev.baton.FailureKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** One row per rule of the OpenAI failure table (DESIGN.md, "Failure kinds and their defaults"). */
class OpenAiClassifierTest {

    @ParameterizedTest(name = "[{index}] {0} type={1} code={2} -> {3}")
    @CsvSource(nullValues = "-", textBlock = """
            # status, error.type,                         error.code,                          kind
            # spend_limit: every spend code, as code and as type; 402
            429, insufficient_quota,                      insufficient_quota,                  SPEND_LIMIT
            429, -,                                       insufficient_quota,                  SPEND_LIMIT
            429, insufficient_quota,                      -,                                   SPEND_LIMIT
            429, -,                                       credit_balance_exhausted,            SPEND_LIMIT
            429, credit_balance_exhausted,                -,                                   SPEND_LIMIT
            429, -,                                       organization_spend_limit_exceeded,   SPEND_LIMIT
            429, organization_spend_limit_exceeded,       -,                                   SPEND_LIMIT
            429, -,                                       project_spend_limit_exceeded,        SPEND_LIMIT
            429, project_spend_limit_exceeded,            -,                                   SPEND_LIMIT
            429, -,                                       organization_usage_limit_exceeded,   SPEND_LIMIT
            429, organization_usage_limit_exceeded,       -,                                   SPEND_LIMIT
            402, -,                                       -,                                   SPEND_LIMIT
            # rate_limit: every other 429
            429, requests,                                rate_limit_exceeded,                 RATE_LIMIT
            429, -,                                       slow_down,                           RATE_LIMIT
            429, -,                                       -,                                   RATE_LIMIT
            # server_error: 5xx, 529, 409, an in-stream error
            503, server_error,                            server_is_overloaded,                SERVER_ERROR
            500, server_error,                            -,                                   SERVER_ERROR
            502, -,                                       -,                                   SERVER_ERROR
            504, -,                                       -,                                   SERVER_ERROR
            529, overloaded_error,                        -,                                   SERVER_ERROR
            409, -,                                       -,                                   SERVER_ERROR
            0,   server_error,                            -,                                   SERVER_ERROR
            # timeout: the provider says the request timed out
            408, -,                                       -,                                   TIMEOUT
            # invalid_request: 400, 413, 422, context length, region policy
            400, invalid_request_error,                   -,                                   INVALID_REQUEST
            400, invalid_request_error,                   context_length_exceeded,             INVALID_REQUEST
            413, -,                                       -,                                   INVALID_REQUEST
            422, -,                                       -,                                   INVALID_REQUEST
            403, -,                                       unsupported_country_region_territory, INVALID_REQUEST
            # moderation: a safety refusal, not a malformed request
            400, invalid_request_error,                   content_policy_violation,            MODERATION
            400, -,                                       content_filter,                      MODERATION
            # credential: 401, and 403 that is not region policy
            401, invalid_request_error,                   invalid_api_key,                     CREDENTIAL
            401, -,                                       -,                                   CREDENTIAL
            403, -,                                       -,                                   CREDENTIAL
            # model_not_served: 404, or model_not_found on any status
            404, invalid_request_error,                   model_not_found,                     MODEL_NOT_SERVED
            503, -,                                       model_not_found,                     MODEL_NOT_SERVED
            """)
    void classifiesByStatusTypeAndCode(int status, String type, String code, FailureKind expected) {
        assertEquals(expected, OpenAiClassifier.classify(status, type, code));
    }
}
