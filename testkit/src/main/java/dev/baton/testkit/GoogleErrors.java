package dev.baton.testkit;

import static dev.baton.testkit.JsonSupport.JSON;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import java.time.Duration;
import java.util.Set;
import java.util.function.Function;

/**
 * How Google's APIs say what the other dialects say: the error a {@link Behavior.ProviderError} becomes on Vertex AI
 * and on the Gemini API, and Google's error body, {@code {"error":{"code","message","status","details"}}}.
 *
 * <p>An {@link Behavior.ApiError} in Google's shape has a {@code google.rpc.Code} name as its {@code type}, the
 * {@code google.rpc.ErrorInfo} reason (or null) as its {@code code}, and renders its {@code retryAfter} as a
 * {@code google.rpc.RetryInfo} detail. Stateless and thread-safe.
 */
final class GoogleErrors {

    /** The {@code google.rpc.Code} names: an error whose type is one of them is rendered in Google's shape. */
    static final Set<String> CODES = Set.of("CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
            "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
            "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED");

    /** Behaviours about an Anthropic or OpenAI account's money or filters: Google has nothing like them. */
    private static final Set<String> NO_EQUIVALENT = Set.of("billingError()", "enforcedSpendLimit()",
            "usageLimitReached()", "workspaceUsageLimitReached()", "contentPolicyViolation()", "azureContentFilter()",
            "anthropicError()");

    static final String VERTEX_401 = "Request had invalid authentication credentials. Expected OAuth 2 access token,"
            + " login cookie or other valid authentication credential. See"
            + " https://developers.google.com/identity/sign-in/web/devconsole-project.";
    static final String VERTEX_401_MISSING = "Request is missing required authentication credential. Expected OAuth 2"
            + " access token, login cookie or other valid authentication credential. See"
            + " https://developers.google.com/identity/sign-in/web/devconsole-project.";

    private GoogleErrors() {
    }

    /**
     * Claude on Vertex AI: Vertex itself answers for the token, the IAM permission, the model's availability and the
     * quota (401, 403, 404, 429 in Google's shape); what the model's own service says (400, 500, 504, 529 overloaded)
     * passes through in Anthropic's shape.
     */
    static Behavior.ApiError vertexClaude(Behavior.ProviderError error) {
        Behavior.ApiError anthropic = error.anthropic();
        if (anthropic == null || NO_EQUIVALENT.contains(error.factory())) {
            return null;
        }
        return switch (anthropic.status()) {
            case 401 -> google(401, "UNAUTHENTICATED", "ACCESS_TOKEN_TYPE_UNSUPPORTED", model -> VERTEX_401, null);
            case 403 -> google(403, "PERMISSION_DENIED", "IAM_PERMISSION_DENIED", model -> "Permission"
                    + " 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/projects/"
                    + "sim-project/locations/us-east5/publishers/anthropic/models/" + model + "' (or it may not exist).",
                    null);
            case 404 -> google(404, "NOT_FOUND", null, model -> publisherModelNotFound("anthropic", model), null);
            case 429 -> vertexQuota(anthropic.retryAfter());
            default -> anthropic;
        };
    }

    /** Vertex AI's OpenAI-compatible endpoint (Gemini and other publishers' models): every error is Google's. */
    static Behavior.ApiError vertexOpenAi(Behavior.ProviderError error) {
        Behavior.ApiError source = source(error);
        if (source == null) {
            return null;
        }
        return switch (source.status()) {
            case 401 -> google(401, "UNAUTHENTICATED", "ACCESS_TOKEN_TYPE_UNSUPPORTED", model -> VERTEX_401, null);
            case 403 -> forbidden(source);
            case 404 -> google(404, "NOT_FOUND", null, model -> publisherModelNotFound("google", model), null);
            case 429 -> vertexQuota(source.retryAfter());
            default -> common(source);
        };
    }

    /** The Gemini API's OpenAI-compatible endpoint: a wrong key is a 400, quotas carry their RetryInfo. */
    static Behavior.ApiError geminiApi(Behavior.ProviderError error) {
        Behavior.ApiError source = source(error);
        if (source == null) {
            return null;
        }
        return switch (source.status()) {
            case 401 -> google(400, "INVALID_ARGUMENT", "API_KEY_INVALID",
                    model -> "API key not valid. Please pass a valid API key.", null);
            case 403 -> forbidden(source);
            case 404 -> google(404, "NOT_FOUND", null, model -> "models/" + model + " is not found for API version"
                    + " v1beta, or is not supported for generateContent. Call ListModels to see the list of available"
                    + " models and their supported methods.", null);
            case 429 -> google(429, "RESOURCE_EXHAUSTED", null, model -> "You exceeded your current quota, please"
                    + " check your plan and billing details. For more information on this error, head to:"
                    + " https://ai.google.dev/gemini-api/docs/rate-limits.", source.retryAfter());
            default -> common(source);
        };
    }

    /** The 401 Vertex AI sends for a missing, wrong or expired access token; {@code reason} says which. */
    static Behavior.ApiError unauthenticated(String reason) {
        return google(401, "UNAUTHENTICATED", reason,
                model -> "CREDENTIALS_MISSING".equals(reason) ? VERTEX_401_MISSING : VERTEX_401, null);
    }

    static Behavior.ApiError google(int status, String code, String reason, Function<String, String> message,
            Duration retryAfter) {
        return new Behavior.ApiError(status, code, reason, null, message, retryAfter);
    }

    /** Google's error body for an error in Google's shape. */
    static JsonObjectBuilder body(Behavior.ApiError error, String model, String service) {
        JsonObjectBuilder fields = JSON.createObjectBuilder()
                .add("code", error.status())
                .add("message", error.message().apply(model))
                .add("status", error.type());
        JsonArrayBuilder details = JSON.createArrayBuilder();
        if (error.code() != null) {
            details.add(JSON.createObjectBuilder()
                    .add("@type", "type.googleapis.com/google.rpc.ErrorInfo")
                    .add("reason", error.code())
                    .add("domain", "googleapis.com")
                    .add("metadata", JSON.createObjectBuilder().add("service", service)));
        }
        if (error.retryAfter() != null) {
            details.add(JSON.createObjectBuilder()
                    .add("@type", "type.googleapis.com/google.rpc.RetryInfo")
                    .add("retryDelay", error.retryAfter().toSeconds() + "s"));
        }
        var built = details.build();
        if (!built.isEmpty()) {
            fields.add("details", built);
        }
        return JSON.createObjectBuilder().add("error", fields);
    }

    /** The HTTP status Google sends with a {@code google.rpc.Code}. */
    static int httpStatus(String code) {
        return switch (code) {
            case "INVALID_ARGUMENT", "FAILED_PRECONDITION", "OUT_OF_RANGE" -> 400;
            case "UNAUTHENTICATED" -> 401;
            case "PERMISSION_DENIED" -> 403;
            case "NOT_FOUND" -> 404;
            case "ALREADY_EXISTS", "ABORTED" -> 409;
            case "RESOURCE_EXHAUSTED" -> 429;
            case "CANCELLED" -> 499;
            case "UNIMPLEMENTED" -> 501;
            case "UNAVAILABLE" -> 503;
            case "DEADLINE_EXCEEDED" -> 504;
            default -> 500;
        };
    }

    static boolean isGoogle(Behavior.ApiError error) {
        return error.type() != null && CODES.contains(error.type());
    }

    /** The OpenAI form of the behaviour, else its Anthropic form (overloaded, timeouts); null when it has neither. */
    private static Behavior.ApiError source(Behavior.ProviderError error) {
        if (NO_EQUIVALENT.contains(error.factory())) {
            return null;
        }
        return error.openAi() != null ? error.openAi() : error.anthropic();
    }

    /** OpenAI's region refusal is Google's FAILED_PRECONDITION; any other 403 a permission Google denies. */
    private static Behavior.ApiError forbidden(Behavior.ApiError source) {
        if ("unsupported_country_region_territory".equals(source.code())) {
            return google(400, "FAILED_PRECONDITION", null, model -> "User location is not supported for the API use.",
                    null);
        }
        return google(403, "PERMISSION_DENIED", null,
                model -> "Method doesn't allow unregistered callers (callers without established identity).", null);
    }

    /** 400s, 5xx and Anthropic's 529 as Google's APIs answer them. */
    private static Behavior.ApiError common(Behavior.ApiError source) {
        int status = source.status();
        if (status == 500) {
            return google(500, "INTERNAL", null, model -> "Internal error encountered.", null);
        }
        if (status == 503 || status == 529) {
            return google(503, "UNAVAILABLE", null, model -> "The model is overloaded. Please try again later.", null);
        }
        if (status == 504) {
            return google(504, "DEADLINE_EXCEEDED", null, model -> "Deadline expired before operation could complete.",
                    null);
        }
        if (status >= 500) {
            return google(status, "UNAVAILABLE", null, model -> "The service is currently unavailable.", null);
        }
        return google(400, "INVALID_ARGUMENT", null, source.message(), null);
    }

    private static Behavior.ApiError vertexQuota(Duration retryAfter) {
        return google(429, "RESOURCE_EXHAUSTED", null, model -> "Resource exhausted. Please try again later. Please"
                + " refer to https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429 for more details.",
                retryAfter);
    }

    private static String publisherModelNotFound(String publisher, String model) {
        String name = model.startsWith(publisher + "/") ? model.substring(publisher.length() + 1) : model;
        return "Publisher Model `projects/sim-project/locations/us-east5/publishers/" + publisher + "/models/" + name
                + "` was not found or your project does not have access to it. Please ensure you are using a valid"
                + " model version. For more information, see:"
                + " https://cloud.google.com/vertex-ai/generative-ai/docs/learn/model-versions";
    }
}
