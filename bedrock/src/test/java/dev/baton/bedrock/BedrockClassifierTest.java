package dev.baton.bedrock;

import dev.baton.FailureKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Bedrock's failure table, row by row: HTTP responses and stream exception frames (status 0). */
class BedrockClassifierTest {

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource({
            "429, ThrottlingException, RATE_LIMIT",
            "400, ServiceQuotaExceededException, RATE_LIMIT",
            "503, ServiceUnavailableException, SERVER_ERROR",
            "500, InternalServerException, SERVER_ERROR",
            "429, ModelNotReadyException, SERVER_ERROR",
            "424, ModelErrorException, SERVER_ERROR",
            "408, ModelTimeoutException, TIMEOUT",
            "400, ValidationException, INVALID_REQUEST",
            "403, AccessDeniedException, MODEL_NOT_SERVED",
            "403, UnrecognizedClientException, CREDENTIAL",
            "403, InvalidSignatureException, CREDENTIAL",
            "403, ExpiredTokenException, CREDENTIAL",
            "403, MissingAuthenticationTokenException, CREDENTIAL",
            "404, ResourceNotFoundException, MODEL_NOT_SERVED",
            "0, throttlingException, RATE_LIMIT",
            "0, modelStreamErrorException, SERVER_ERROR",
            "0, internalServerException, SERVER_ERROR",
            "0, serviceUnavailableException, SERVER_ERROR",
            "0, validationException, INVALID_REQUEST",
            "0, modelTimeoutException, TIMEOUT",
            "0, somethingNewException, SERVER_ERROR",
            "429, , RATE_LIMIT",
            "401, , CREDENTIAL",
            "403, , CREDENTIAL",
            "404, , MODEL_NOT_SERVED",
            "408, , TIMEOUT",
            "502, , SERVER_ERROR",
            "504, , SERVER_ERROR",
            "413, , INVALID_REQUEST",
            "400, SomethingNewException, INVALID_REQUEST",
    })
    void classifies(int status, String type, FailureKind expected) {
        assertEquals(expected, BedrockClassifier.classify(status, type, null));
    }

    @ParameterizedTest
    @CsvSource({
            "'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/', ThrottlingException",
            "'com.amazon.coral.service#UnrecognizedClientException', UnrecognizedClientException",
            "'ValidationException', ValidationException",
            "'  ', ",
    })
    void readsTheExceptionName(String raw, String name) {
        assertEquals(name, BedrockClassifier.exceptionName(raw));
    }
}
