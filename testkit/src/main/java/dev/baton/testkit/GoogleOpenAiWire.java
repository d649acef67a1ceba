package dev.baton.testkit;

import static dev.baton.testkit.JsonSupport.JSON;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The OpenAI chat-completions wire as Google serves it: Vertex AI's {@code …/endpoints/openapi/chat/completions}
 * (models named {@code publisher/model}, such as {@code google/gemini-2.5-flash}) and the Gemini API's
 * {@code /v1beta/openai/chat/completions}. Answers and streams are OpenAI's; errors are Google's shape, which the
 * Gemini API wraps in a one-element array.
 *
 * <p>Stateless and thread-safe.
 */
final class GoogleOpenAiWire implements WireFormat {

    static final GoogleOpenAiWire VERTEX = new GoogleOpenAiWire(Dialect.VERTEX_OPENAI, "aiplatform.googleapis.com",
            false);
    static final GoogleOpenAiWire GEMINI = new GoogleOpenAiWire(Dialect.GEMINI_OPENAI,
            "generativelanguage.googleapis.com", true);

    private static final OpenAiWire OPENAI = OpenAiWire.INSTANCE;

    private final Dialect dialect;
    private final String service;
    private final boolean inArray;

    private GoogleOpenAiWire(Dialect dialect, String service, boolean inArray) {
        this.dialect = dialect;
        this.service = service;
        this.inArray = inArray;
    }

    @Override
    public Dialect dialect() {
        return dialect;
    }

    @Override
    public String route() {
        return "/chat/completions";
    }

    @Override
    public Behavior.ApiError reject(JsonObject body) {
        if (body == null) {
            return GoogleErrors.google(400, "INVALID_ARGUMENT", null,
                    model -> "Invalid JSON payload received. Unexpected token.", null);
        }
        if (!(body.get("model") instanceof JsonString model)) {
            return GoogleErrors.google(400, "INVALID_ARGUMENT", null, m -> "model is required.", null);
        }
        if (dialect == Dialect.VERTEX_OPENAI && model.getString().indexOf('/') <= 0) {
            return GoogleErrors.google(400, "INVALID_ARGUMENT", null, m -> "The model name must be of the form"
                    + " publisher/model, such as google/gemini-2.5-flash, but was " + model.getString() + ".", null);
        }
        return null;
    }

    @Override
    public Call call(JsonObject body, String account, long sequence) {
        return OPENAI.call(body, account, sequence);
    }

    @Override
    public String requestId() {
        return OPENAI.requestId();
    }

    @Override
    public Map<String, String> headers(String requestId, Behavior.ApiError error, long processingMillis) {
        return new LinkedHashMap<>(); // no rate-limit headers; a quota's retry hint is in the body
    }

    @Override
    public String completion(Call call, Behavior.Reply reply) {
        return OPENAI.completion(call, reply);
    }

    @Override
    public List<String> events(Call call, Behavior.Reply reply, boolean terminated, boolean usageChoicesNull) {
        return OPENAI.events(call, reply, terminated, usageChoicesNull);
    }

    @Override
    public int firstOutputEvent() {
        return OPENAI.firstOutputEvent();
    }

    /** An error inside a stream: Google's error object as the event's data. */
    @Override
    public String errorEvent(Behavior.ApiError error) {
        String code = GoogleErrors.isGoogle(error) ? error.type() : "INTERNAL";
        Behavior.ApiError google = GoogleErrors.google(GoogleErrors.httpStatus(code), code, error.code(),
                error.message(), error.retryAfter());
        return "data: " + GoogleErrors.body(google, null, service).build() + "\n\n";
    }

    @Override
    public String malformedEvent(Call call) {
        return OPENAI.malformedEvent(call);
    }

    @Override
    public String errorBody(Behavior.ApiError error, String model, String requestId) {
        if (!GoogleErrors.isGoogle(error)) {
            return OPENAI.errorBody(error, model, requestId);
        }
        JsonObject body = GoogleErrors.body(error, model, service).build();
        return inArray ? JSON.createArrayBuilder().add(body).build().toString() : body.toString();
    }
}
