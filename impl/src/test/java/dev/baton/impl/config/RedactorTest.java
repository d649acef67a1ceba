package dev.baton.impl.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RedactorTest {

    private static final String CONFIGURED = "proxy-key-7f3a9c21d4";

    private final Redactor redactor = new Redactor(List.of(CONFIGURED));

    @Test
    void removesConfiguredKeys() {
        String out = redactor.clean("upstream rejected " + CONFIGURED + " for this org");
        assertFalse(out.contains(CONFIGURED), out);
        assertEquals("upstream rejected <redacted> for this org", out);
    }

    @Test
    void removesKeyShapedValues() {
        String out = redactor.clean("Incorrect API key provided: sk-proj-AbC123xyz_9-QQ. You can find your key...");
        assertFalse(out.contains("AbC123xyz"), out);
        assertTrue(out.startsWith("Incorrect API key provided: <redacted>"), out);
    }

    @Test
    void removesBearerTokens() {
        String out = redactor.clean("header was Authorization: Bearer eyJhbGciOi.payload.sig== here");
        assertFalse(out.contains("eyJhbGciOi"), out);
        assertTrue(out.contains("<redacted>"), out);
        assertTrue(redactor.clean("bearer abc123def").contains("<redacted>"));
    }

    @Test
    void removesTheCloudsCredentialsByTheirShape() {
        String googleKey = "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW";
        String token = "ya29.a0AfB_byC-1x2y3z.Q4w5e6";
        String signature = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

        String out = redactor.clean("key " + googleKey + " was refused; token " + token
                + " expired; Authorization: AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20261203/us-east-1/bedrock"
                + "/aws4_request, SignedHeaders=host;x-amz-date, Signature=" + signature);

        assertFalse(out.contains(googleKey) || out.contains("a0AfB_byC") || out.contains(signature), out);
        assertTrue(out.contains("key <redacted> was refused; token <redacted> expired"), out);
        assertTrue(out.endsWith("Signature=<redacted>"), out);
        assertTrue(Redactor.maskAccounts(out).contains("Credential=AKIA<hidden>/20261203"), Redactor.maskAccounts(out));
    }

    @Test
    void removesApiKeyAssignments() {
        String out = redactor.clean("request had api_key=abcdef0123456789 in it");
        assertFalse(out.contains("abcdef0123456789"), out);
    }

    @Test
    void ignoresConfiguredValuesTooShortToBeKeys() {
        Redactor r = new Redactor(List.of("error"));
        assertEquals("server error", r.clean("server error"));
    }

    @Test
    void boundsTheLength() {
        String out = redactor.clean("x".repeat(2000));
        assertEquals(501, out.length());
        assertTrue(out.endsWith("…"));
        assertEquals("short", redactor.clean("short"));
    }

    @Test
    void removesCarriageReturnsAndLineFeeds() {
        String out = redactor.clean("line one\r\nInjected: header\nline three\rend");
        assertFalse(out.contains("\r") || out.contains("\n"), out);
        assertEquals("line one Injected: header line three end", out);
    }

    /**
     * What the adapters record for real provider errors ("HTTP status code: message" for OpenAI, "HTTP status type:
     * message" for Anthropic), what the record keeps after {@link Redactor#clean}, and what a caller reads after
     * {@link Redactor#maskAccounts}. Message texts as OpenAI and Anthropic send them; ids and keys made up.
     */
    static Stream<Arguments> providerMessages() {
        String openAiKey = "sk-proj-" + "*".repeat(40) + "J3kA";
        String org = "org-Zx8k2LmQ4pRt7VwY1nB3cD5f";
        String project = "proj_Ab12Cd34Ef56Gh78Ij90Kl12";
        String anthropicOrg = "6a3b1f0e-2c4d-4e5f-8a9b-0c1d2e3f4a5b";
        String rateLimits = " Visit https://platform.openai.com/account/rate-limits to learn more.";
        String anthropicTail = " For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response"
                + " headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try"
                + " again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your"
                + " options for a rate limit increase.";
        String quota = "You exceeded your current quota, please check your plan and billing details. For more"
                + " information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.";
        return Stream.of(
                Arguments.of("OpenAI 401 invalid_api_key",
                        "HTTP 401 invalid_api_key: Incorrect API key provided: " + openAiKey + ". You can find your API key"
                                + " at https://platform.openai.com/account/api-keys.",
                        "HTTP 401 invalid_api_key: Incorrect API key provided: <redacted>. You can find your API key"
                                + " at https://platform.openai.com/account/api-keys.",
                        null),
                Arguments.of("OpenAI 429 rate_limit_exceeded, tokens per minute",
                        "HTTP 429 rate_limit_exceeded: Rate limit reached for gpt-4o in organization " + org + " on tokens"
                                + " per min (TPM): Limit 30000, Used 29876, Requested 512. Please try again in 776ms."
                                + rateLimits,
                        null,
                        "HTTP 429 rate_limit_exceeded: Rate limit reached for gpt-4o in organization org-<hidden> on"
                                + " tokens per min (TPM): Limit 30000, Used 29876, Requested 512. Please try again in"
                                + " 776ms." + rateLimits),
                Arguments.of("OpenAI 429 rate_limit_exceeded, requests per day of a project",
                        "HTTP 429 rate_limit_exceeded: Rate limit reached for gpt-4o-mini in project " + project
                                + " on requests per day (RPD): Limit 10000, Used 10000, Requested 1. Please try again in"
                                + " 8.64s." + rateLimits,
                        null,
                        "HTTP 429 rate_limit_exceeded: Rate limit reached for gpt-4o-mini in project proj_<hidden> on"
                                + " requests per day (RPD): Limit 10000, Used 10000, Requested 1. Please try again in"
                                + " 8.64s." + rateLimits),
                Arguments.of("OpenAI 429 on a free-tier organization",
                        "HTTP 429 rate_limit_exceeded: Rate limit reached for default-gpt-3.5-turbo in organization "
                                + org + " on requests per min. Limit: 3 / min. Please try again in 20s. Contact us"
                                + " through our help center at help.openai.com if you continue to have issues.",
                        null,
                        "HTTP 429 rate_limit_exceeded: Rate limit reached for default-gpt-3.5-turbo in organization"
                                + " org-<hidden> on requests per min. Limit: 3 / min. Please try again in 20s. Contact"
                                + " us through our help center at help.openai.com if you continue to have issues."),
                Arguments.of("OpenAI 429 insufficient_quota", "HTTP 429 insufficient_quota: " + quota, null, null),
                Arguments.of("OpenAI 429 project_spend_limit_exceeded", "HTTP 429 project_spend_limit_exceeded: " + quota,
                        null, null),
                Arguments.of("OpenAI 403 model_not_found for a project",
                        "HTTP 403 model_not_found: Project `" + project + "` does not have access to model `gpt-4o`",
                        null, "HTTP 403 model_not_found: Project `proj_<hidden>` does not have access to model `gpt-4o`"),
                Arguments.of("OpenAI 401 mismatched_organization",
                        "HTTP 401 mismatched_organization: OpenAI-Organization header should match organization for API"
                                + " key", null, null),
                Arguments.of("OpenAI 403 organization not verified",
                        "HTTP 400 unsupported_value: Your organization must be verified to stream this model. Please go"
                                + " to: https://platform.openai.com/settings/organization/general and click on Verify"
                                + " Organization.", null, null),
                Arguments.of("Anthropic 401 authentication_error",
                        "HTTP 401 authentication_error: invalid x-api-key", null, null),
                Arguments.of("Anthropic 429 rate_limit_error with the organization's id",
                        "HTTP 429 rate_limit_error: This request would exceed the rate limit for your organization ("
                                + anthropicOrg + ") of 50,000 input tokens per minute." + anthropicTail,
                        null,
                        "HTTP 429 rate_limit_error: This request would exceed the rate limit for your organization"
                                + " (<hidden>) of 50,000 input tokens per minute." + anthropicTail),
                Arguments.of("Anthropic 429 enforced_spend_limit_reached",
                        "HTTP 429 rate_limit_error enforced_spend_limit_reached: You have reached your organization's"
                                + " monthly spend limit for your usage tier. Your access will be restored at the start"
                                + " of next month, or you can raise your limit in the Console.", null, null),
                Arguments.of("Anthropic 400 self-set usage limit",
                        "HTTP 400 invalid_request_error: You have reached your specified API usage limits. You will"
                                + " regain access on 2027-01-01 at 00:00 UTC.", null, null),
                Arguments.of("Anthropic 400 workspace usage limit",
                        "HTTP 400 invalid_request_error: You have reached your specified workspace API usage limits."
                                + " You will regain access on 2027-01-01 at 00:00 UTC.", null, null),
                Arguments.of("Anthropic 400 credit balance",
                        "HTTP 400 invalid_request_error: Your credit balance is too low to access the Anthropic API."
                                + " Please go to Plans & Billing to upgrade or purchase credits.", null, null),
                Arguments.of("Anthropic 529 overloaded_error", "HTTP 529 overloaded_error: Overloaded", null, null));
    }

    /**
     * @param recorded    what the record keeps, or {@code null} when it is the message unchanged
     * @param callerSees  what the caller reads, or {@code null} when it is what the record keeps
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("providerMessages")
    void providerMessagesLoseOnlyTheSecretInTheRecordAndTheAccountIdsForTheCaller(String what, String message,
                                                                                     String recorded, String callerSees) {
        String kept = new Redactor(List.of()).clean(message);
        assertEquals(recorded == null ? message : recorded, kept);
        assertEquals(callerSees == null ? kept : callerSees, Redactor.maskAccounts(kept));
    }

    @ParameterizedTest
    @ValueSource(strings = {"org-Zx8k2LmQ4pRt7VwY1nB3cD5f", "proj_Ab12Cd34Ef56Gh78Ij90Kl12",
            "user-Qw3rTy5uIo7pAs9dFg1hJk2l", "wrkspc_01AbCdEfGhIjKlMnOpQrStUv", "apikey_01AbCdEfGhIjKlMnOpQrStUv",
            "6A3B1F0E-2C4D-4E5F-8A9B-0C1D2E3F4A5B"})
    void everyKindOfAccountIdIsMasked(String id) {
        String masked = Redactor.maskAccounts("the account " + id + ", twice: (" + id + ").");
        assertFalse(masked.contains(id), masked);
        assertTrue(masked.startsWith("the account ") && masked.endsWith(").") && masked.contains("<hidden>"), masked);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a task-force of 12 went to the desk-top", "a user-friendly org-wide policy",
            "Bearer token required", "the API key provided is wrong", "invalid_api_key: Incorrect key"})
    void ordinaryWordsStay(String text) {
        assertEquals(text, Redactor.maskAccounts(new Redactor(List.of()).clean(text)));
    }

    @Test
    void secretsGoButTheirLabelsStay() {
        Redactor r = new Redactor(List.of());
        assertEquals("Authorization: Bearer <redacted>. Retry.", r.clean("Authorization: Bearer eyJhbGciOi.payload.sig==. Retry."));
        assertEquals("x-api-key: <redacted> was refused", r.clean("x-api-key: sk-ant-api03-Ab12_cd-34 was refused"));
        assertEquals("api_key=<redacted>, then", r.clean("api_key=abcdef0123456789, then"));
        assertEquals("\"api-key\": \"<redacted>\"", r.clean("\"api-key\": \"c0ffee12c0ffee12\""));
    }

    @Test
    void nullStaysNull() {
        assertNull(redactor.clean(null));
    }
}
