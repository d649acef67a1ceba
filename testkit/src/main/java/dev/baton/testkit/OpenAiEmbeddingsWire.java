package dev.baton.testkit;

import static dev.baton.testkit.JsonSupport.JSON;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * OpenAI's embeddings endpoint ({@code POST /v1/embeddings}, also Azure OpenAI's
 * {@code /openai/deployments/{deployment}/embeddings}). Whatever reply a behaviour scripts, a success is the
 * {@link Embeddings} vectors of the request's inputs; error and transport behaviours apply as on chat completions,
 * stream shaping never does (embeddings are not streamed).
 *
 * <p>Stateless and thread-safe.
 */
final class OpenAiEmbeddingsWire implements WireFormat {

    static final OpenAiEmbeddingsWire INSTANCE = new OpenAiEmbeddingsWire();

    /** How many inputs one request may carry. */
    static final int MAX_INPUTS = 2048;

    /** How many tokens one input given as token ids may have (the models' context). */
    static final int MAX_TOKENS_PER_INPUT = 8192;

    /** A bound for models the simulator knows nothing about, so a typo cannot ask for gigabytes. */
    static final int MAX_DIMENSIONS = 16384;

    private static final OpenAiWire OPENAI = OpenAiWire.INSTANCE;

    private OpenAiEmbeddingsWire() {
    }

    @Override
    public Dialect dialect() {
        return Dialect.OPENAI_EMBEDDINGS;
    }

    @Override
    public String route() {
        return "/embeddings";
    }

    /** Refuses a body OpenAI refuses: no model, an input in none of the four forms, bad dimensions or encoding. */
    @Override
    public Behavior.ApiError reject(JsonObject body) {
        Behavior.ApiError refused = OPENAI.reject(body);
        if (refused != null) {
            return refused;
        }
        try {
            items(body.get("input"));
        } catch (IllegalArgumentException e) {
            return invalid("input", e.getMessage());
        }
        String model = body.getString("model");
        JsonValue dimensions = body.get("dimensions");
        if (dimensions != null && dimensions.getValueType() != JsonValue.ValueType.NULL) {
            if (model.equals("text-embedding-ada-002")) {
                return invalid("dimensions", "This model does not support specifying dimensions.");
            }
            int max = model.startsWith("text-embedding-3-") ? Embeddings.defaultDimensions(model) : MAX_DIMENSIONS;
            if (!(dimensions instanceof JsonNumber n) || !n.isIntegral() || n.bigDecimalValue().signum() <= 0
                    || n.bigDecimalValue().compareTo(java.math.BigDecimal.valueOf(max)) > 0) {
                return invalid("dimensions", "Invalid value for 'dimensions': expected an integer from 1 to " + max
                        + " for " + model + ", got " + dimensions + ".");
            }
        }
        JsonValue format = body.get("encoding_format");
        if (format != null && format.getValueType() != JsonValue.ValueType.NULL && !(format instanceof JsonString s
                && (s.getString().equals("float") || s.getString().equals("base64")))) {
            return invalid("encoding_format", "Invalid value for 'encoding_format': expected 'float' or 'base64', got "
                    + format + ".");
        }
        return null;
    }

    private static Behavior.ApiError invalid(String param, String message) {
        return Behavior.ApiError.of(400, "invalid_request_error", null, param, message);
    }

    /**
     * The inputs, each a String or an int[] of token ids, from any of OpenAI's four forms: a string, an array of
     * strings, an array of token ids, an array of token-id arrays.
     *
     * @throws IllegalArgumentException saying what is wrong with them
     */
    static List<Object> items(JsonValue input) {
        if (input == null || input.getValueType() == JsonValue.ValueType.NULL) {
            throw new IllegalArgumentException("Missing required parameter: 'input'.");
        }
        if (input instanceof JsonString text) {
            return List.of(text(text));
        }
        if (!(input instanceof JsonArray array)) {
            throw new IllegalArgumentException("'input' must be a string, an array of strings, an array of token ids"
                    + " or an array of token-id arrays.");
        }
        if (array.isEmpty()) {
            throw new IllegalArgumentException("'input' must not be an empty array.");
        }
        if (array.get(0) instanceof JsonNumber) {
            return List.of(tokens(array));
        }
        if (array.size() > MAX_INPUTS) {
            throw new IllegalArgumentException("'input' has " + array.size() + " items; at most " + MAX_INPUTS
                    + " inputs are allowed per request.");
        }
        List<Object> items = new ArrayList<>(array.size());
        boolean strings = array.get(0) instanceof JsonString;
        for (JsonValue item : array) {
            if (strings && item instanceof JsonString text) {
                items.add(text(text));
            } else if (!strings && item instanceof JsonArray tokens) {
                items.add(tokens(tokens));
            } else {
                throw new IllegalArgumentException("'input' must be a string, an array of strings, an array of token"
                        + " ids or an array of token-id arrays, not a mix; item " + items.size() + " is " + item + ".");
            }
        }
        return items;
    }

    private static String text(JsonString text) {
        if (text.getString().isEmpty()) {
            throw new IllegalArgumentException("'input' cannot be an empty string.");
        }
        return text.getString();
    }

    private static int[] tokens(JsonArray array) {
        if (array.isEmpty()) {
            throw new IllegalArgumentException("'input' cannot contain an empty token array.");
        }
        if (array.size() > MAX_TOKENS_PER_INPUT) {
            throw new IllegalArgumentException("An input has " + array.size() + " tokens; at most "
                    + MAX_TOKENS_PER_INPUT + " are allowed.");
        }
        int[] tokens = new int[array.size()];
        for (int i = 0; i < tokens.length; i++) {
            if (!(array.get(i) instanceof JsonNumber n) || !n.isIntegral() || n.bigIntegerValue().signum() < 0
                    || n.bigIntegerValue().bitLength() > 31) {
                throw new IllegalArgumentException("'input' token ids must be non-negative integers, got "
                        + array.get(i) + ".");
            }
            tokens[i] = n.intValue();
        }
        return tokens;
    }

    @Override
    public Call call(JsonObject body, String account, long sequence) {
        int tokens = 0;
        for (Object item : items(body.get("input"))) {
            tokens += item instanceof int[] ids ? ids.length : Math.max(1, (((String) item).length() + 3) / 4);
        }
        return new Call("embd-sim" + sequence, sequence, Instant.now().getEpochSecond(), account,
                body.getString("model"), false, false, tokens, body);
    }

    @Override
    public String requestId() {
        return OPENAI.requestId();
    }

    @Override
    public Map<String, String> headers(String requestId, Behavior.ApiError error, long processingMillis) {
        return OPENAI.headers(requestId, error, processingMillis);
    }

    /**
     * The list of vectors, whatever {@code reply} says. Written by hand rather than with JSON-P so that every
     * component has the text of {@link Embeddings#format}.
     */
    @Override
    public String completion(Call call, Behavior.Reply reply) {
        JsonObject request = call.request();
        int dimensions = request.get("dimensions") instanceof JsonNumber n ? n.intValue()
                : Embeddings.defaultDimensions(call.model());
        boolean base64 = "base64".equals(request.getString("encoding_format", "float"));
        List<Object> items = items(request.get("input"));
        StringBuilder body = new StringBuilder(items.size() * dimensions * 12 + 200);
        body.append("{\"object\":\"list\",\"data\":[");
        for (int i = 0; i < items.size(); i++) {
            Object item = items.get(i);
            float[] vector = item instanceof int[] tokens ? Embeddings.vector(call.model(), tokens, dimensions)
                    : Embeddings.vector(call.model(), (String) item, dimensions);
            body.append(i == 0 ? "" : ",").append("{\"object\":\"embedding\",\"index\":").append(i)
                    .append(",\"embedding\":");
            if (base64) {
                body.append('"').append(Embeddings.base64(vector)).append('"');
            } else {
                body.append('[');
                for (int d = 0; d < vector.length; d++) {
                    body.append(d == 0 ? "" : ",").append(Embeddings.format(vector[d]));
                }
                body.append(']');
            }
            body.append('}');
        }
        return body.append("],\"model\":").append(JSON.createValue(call.model()))
                .append(",\"usage\":{\"prompt_tokens\":").append(call.promptTokens())
                .append(",\"total_tokens\":").append(call.promptTokens()).append("}}").toString();
    }

    /** Never called: an embeddings call is never a stream. */
    @Override
    public List<String> events(Call call, Behavior.Reply reply, boolean terminated, boolean usageChoicesNull) {
        throw new IllegalStateException("embeddings are not streamed");
    }

    @Override
    public int firstOutputEvent() {
        return 0;
    }

    @Override
    public String errorEvent(Behavior.ApiError error) {
        return OPENAI.errorEvent(error);
    }

    @Override
    public String malformedEvent(Call call) {
        return OPENAI.malformedEvent(call);
    }

    @Override
    public String errorBody(Behavior.ApiError error, String model, String requestId) {
        return OPENAI.errorBody(error, model, requestId);
    }
}
