package dev.baton.testkit;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Claude on Vertex AI: the Anthropic Messages wire at {@code …/publishers/anthropic/models/{model}:rawPredict} and
 * {@code :streamRawPredict}. The model is in the URL, never in the body, and the body names
 * {@code "anthropic_version": "vertex-2023-10-16"}; answers and streams are Anthropic's; errors are Vertex's own
 * (Google's shape) or Anthropic's passed through, as {@link GoogleErrors#vertexClaude} says.
 *
 * <p>Stateless and thread-safe.
 */
final class VertexAnthropicWire implements WireFormat {

    static final VertexAnthropicWire INSTANCE = new VertexAnthropicWire();

    /** The only {@code anthropic_version} Vertex AI accepts. */
    static final String ANTHROPIC_VERSION = "vertex-2023-10-16";

    private static final AnthropicWire ANTHROPIC = AnthropicWire.INSTANCE;

    private VertexAnthropicWire() {
    }

    @Override
    public Dialect dialect() {
        return Dialect.VERTEX_ANTHROPIC;
    }

    @Override
    public String route() {
        return ":rawPredict";
    }

    /** What Vertex refuses before the model sees it: no JSON, a model in the body, no or another anthropic_version. */
    @Override
    public Behavior.ApiError reject(JsonObject body) {
        if (body == null) {
            return GoogleErrors.google(400, "INVALID_ARGUMENT", null,
                    model -> "Invalid JSON payload received. Unexpected token.", null);
        }
        if (body.containsKey("model")) {
            return Behavior.ApiError.of(400, "invalid_request_error", null, null, "model: Extra inputs are not"
                    + " permitted (on Vertex AI the model is named in the URL)");
        }
        if (!(body.get("anthropic_version") instanceof JsonString version)) {
            return Behavior.ApiError.of(400, "invalid_request_error", null, null, "anthropic_version: Field required");
        }
        if (!version.getString().equals(ANTHROPIC_VERSION)) {
            return Behavior.ApiError.of(400, "invalid_request_error", null, null, "anthropic_version: Input should be '"
                    + ANTHROPIC_VERSION + "'");
        }
        if (!(body.get("max_tokens") instanceof JsonNumber n) || !n.isIntegral()) {
            return Behavior.ApiError.of(400, "invalid_request_error", null, null, "max_tokens: Field required");
        }
        return null;
    }

    /** {@code body} must have been given the URL's model as {@code model}. */
    @Override
    public Call call(JsonObject body, String account, long sequence) {
        return ANTHROPIC.call(body, account, sequence);
    }

    @Override
    public String requestId() {
        return ANTHROPIC.requestId();
    }

    @Override
    public Map<String, String> headers(String requestId, Behavior.ApiError error, long processingMillis) {
        return new LinkedHashMap<>(); // Vertex sends no rate-limit headers; a quota's retry hint is in the body
    }

    @Override
    public String completion(Call call, Behavior.Reply reply) {
        return ANTHROPIC.completion(call, reply);
    }

    @Override
    public List<String> events(Call call, Behavior.Reply reply, boolean terminated, boolean usageChoicesNull) {
        return ANTHROPIC.events(call, reply, terminated, usageChoicesNull);
    }

    @Override
    public int firstOutputEvent() {
        return ANTHROPIC.firstOutputEvent();
    }

    @Override
    public String errorEvent(Behavior.ApiError error) {
        return ANTHROPIC.errorEvent(error);
    }

    @Override
    public String malformedEvent(Call call) {
        return ANTHROPIC.malformedEvent(call);
    }

    @Override
    public String errorBody(Behavior.ApiError error, String model, String requestId) {
        return GoogleErrors.isGoogle(error) ? GoogleErrors.body(error, model, "aiplatform.googleapis.com").build()
                .toString() : ANTHROPIC.errorBody(error, model, requestId);
    }
}
