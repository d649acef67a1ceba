package dev.baton.impl.anthropic;

import dev.baton.FailureKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** One row per rule of the Anthropic failure table (DESIGN.md "Failure kinds and their defaults", docs/providers.md). */
class AnthropicClassifierTest {

    @ParameterizedTest(name = "[{index}] {0} {1} code={2} retry-after={4} -> {5}")
    @CsvSource(nullValues = "-", delimiter = '|', textBlock = """
            # status | error.type            | details.error_code           | message                                                          | retry-after | kind
            # spend_limit: the tier's monthly cap (429 with error_code, with or without retry-after, in a stream too)
            429      | rate_limit_error      | enforced_spend_limit_reached | -                                                                | false       | SPEND_LIMIT
            429      | rate_limit_error      | enforced_spend_limit_reached | -                                                                | true        | SPEND_LIMIT
            0        | rate_limit_error      | enforced_spend_limit_reached | -                                                                | false       | SPEND_LIMIT
            # spend_limit: 402 billing_error
            402      | billing_error         | -                            | -                                                                | false       | SPEND_LIMIT
            # spend_limit: 400 self-set usage limit (organisation or workspace), the one message-text rule
            400      | invalid_request_error | -                            | You have reached your specified workspace API usage limits. You will regain access on 2026-12-01 at 00:00 UTC. | false | SPEND_LIMIT
            400      | invalid_request_error | -                            | Sorry: You have reached your specified API usage limits          | false       | INVALID_REQUEST
            400      | invalid_request_error | -                            | You have reached your specified API usage limits. You will regain access on 2026-09-01 at 00:00 UTC. | false | SPEND_LIMIT
            # rate_limit: every other 429, with or without retry-after; the message never decides
            429      | rate_limit_error      | -                            | Number of request tokens has exceeded your per-minute rate limit | true        | RATE_LIMIT
            429      | rate_limit_error      | -                            | -                                                                | false       | RATE_LIMIT
            429      | rate_limit_error      | -                            | You have reached your specified API usage limits                 | false       | RATE_LIMIT
            # server_error: 529 overloaded, 500 api_error, 504 timeout_error, other 5xx, 409
            529      | overloaded_error      | -                            | Overloaded                                                       | false       | SERVER_ERROR
            500      | api_error             | -                            | -                                                                | false       | SERVER_ERROR
            504      | timeout_error         | -                            | -                                                                | false       | SERVER_ERROR
            502      | -                     | -                            | -                                                                | false       | SERVER_ERROR
            503      | -                     | -                            | -                                                                | true        | SERVER_ERROR
            409      | -                     | -                            | -                                                                | false       | SERVER_ERROR
            # credential: 401 authentication_error, 403 permission_error
            401      | authentication_error  | -                            | invalid x-api-key                                                | false       | CREDENTIAL
            403      | permission_error      | -                            | -                                                                | false       | CREDENTIAL
            # model_not_served: 404 not_found_error
            404      | not_found_error       | -                            | model: claude-nope                                               | false       | MODEL_NOT_SERVED
            # invalid_request: 400 and 422 invalid_request_error, 413 request_too_large, other 4xx
            400      | invalid_request_error | -                            | prompt is too long: 210000 tokens > 200000 maximum               | false       | INVALID_REQUEST
            422      | invalid_request_error | -                            | -                                                                | false       | INVALID_REQUEST
            413      | request_too_large     | -                            | -                                                                | false       | INVALID_REQUEST
            # in a stream (status 0): overloaded_error and api_error are server errors, rate_limit_error a rate limit, the rest server errors
            0        | overloaded_error      | -                            | Overloaded                                                       | false       | SERVER_ERROR
            0        | api_error             | -                            | -                                                                | false       | SERVER_ERROR
            0        | rate_limit_error      | -                            | -                                                                | false       | RATE_LIMIT
            0        | invalid_request_error | -                            | -                                                                | false       | SERVER_ERROR
            0        | -                     | -                            | -                                                                | false       | SERVER_ERROR
            """)
    void classifiesByStatusTypeAndErrorCode(int status, String type, String errorCode, String message, boolean retryAfter,
                                            FailureKind expected) {
        // retry-after is listed to show it never changes the kind; the classifier does not read it
        assertEquals(expected, AnthropicClassifier.classify(status, type, errorCode, message));
    }
}
