package dev.baton.testkit;

import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One provider dialect: which path it answers and how its replies, streams and errors look on the wire. Shaping a
 * stream in time (delays, cuts, stalls, inserted events) is not the dialect's business; {@link Playback} does that
 * for every dialect alike.
 *
 * <p>Implementations must be stateless and thread-safe.
 */
interface WireFormat {

    /** The dialects the simulator speaks; a {@link Behavior.ProviderError} says how it looks in each. */
    enum Dialect {
        OPENAI("OpenAI chat completions"),
        ANTHROPIC("Anthropic Messages"),
        BEDROCK("Amazon Bedrock Converse"),
        VERTEX_ANTHROPIC("Claude on Vertex AI"),
        VERTEX_OPENAI("Vertex AI OpenAI-compatible chat completions"),
        GEMINI_OPENAI("Gemini API OpenAI-compatible chat completions"),
        OPENAI_RESPONSES("OpenAI Responses"),
        OPENAI_EMBEDDINGS("OpenAI embeddings");

        final String title;

        Dialect(String title) {
            this.title = title;
        }
    }

    /**
     * What a playback needs to know about one request. {@code request} is the body, for dialects whose answer echoes
     * or depends on it (Responses, embeddings); null for the others.
     */
    record Call(String id, long sequence, long created, String account, String model, boolean stream,
            boolean includeUsage, int promptTokens, JsonObject request) {

        /** A call whose answer does not depend on the request body. */
        Call(String id, long sequence, long created, String account, String model, boolean stream,
                boolean includeUsage, int promptTokens) {
            this(id, sequence, created, account, model, stream, includeUsage, promptTokens, null);
        }
    }

    Dialect dialect();

    /** The POST path below {@code /{account}/v1} this dialect answers, e.g. {@code /chat/completions}. */
    String route();

    /** An error for a body the provider would refuse before any behaviour applies (null body: not JSON); else null. */
    Behavior.ApiError reject(JsonObject body);

    Call call(JsonObject body, String account, long sequence);

    /** A fresh id for the request-id header (and, where the dialect has one, the error body's request_id). */
    String requestId();

    /**
     * Headers the provider puts on every answer to this route: rate-limit headers on a success ({@code error}
     * null), retry headers on an error whose {@link Behavior.ApiError#retryAfter()} is set.
     */
    Map<String, String> headers(String requestId, Behavior.ApiError error, long processingMillis);

    /** The JSON body of a successful non-streamed answer; {@code reply} has text, a tool call or both. */
    String completion(Call call, Behavior.Reply reply);

    /**
     * The complete SSE frames of a successful stream, each ending in a blank line; {@code terminated} false leaves out
     * the terminator ({@code [DONE]}, {@code message_stop}); {@code usageChoicesNull} sends OpenAI's usage chunk with
     * {@code "choices": null} (other dialects ignore it).
     */
    List<String> events(Call call, Behavior.Reply reply, boolean terminated, boolean usageChoicesNull);

    /** The index into {@link #events} of the first frame carrying output; the first-token delay goes before it. */
    int firstOutputEvent();

    /** {@link #firstOutputEvent()} for this reply, for dialects where it depends on whether the reply has text. */
    default int firstOutputEvent(Behavior.Reply reply) {
        return firstOutputEvent();
    }

    String errorEvent(Behavior.ApiError error);

    /** {@link #errorEvent(Behavior.ApiError)} sent as the stream's frame number {@code sequence} (from 0). */
    default String errorEvent(Behavior.ApiError error, int sequence) {
        return errorEvent(error);
    }

    /** A frame whose data is not valid JSON, as a truncating proxy might produce. */
    String malformedEvent(Call call);

    String errorBody(Behavior.ApiError error, String model, String requestId);

    /** The content type of a stream's body. */
    default String streamContentType() {
        return "text/event-stream";
    }

    /** The bytes of one frame of {@link #events} (or {@link #errorEvent}, {@link #malformedEvent}) on the wire. */
    default byte[] encode(String frame) {
        return frame.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------- shared by the dialects

    /** The text split before each space, so every piece but the first keeps its leading space. */
    static List<String> words(String text) {
        return text == null || text.isEmpty() ? List.of() : List.of(text.split("(?= )"));
    }

    /** The output tokens the simulator reports: one per word, plus one per four characters of tool arguments. */
    static int outputTokens(Behavior.Reply reply) {
        int tokens = words(reply.text()).size();
        if (reply.toolCall() != null) {
            tokens += Math.max(1, reply.toolCall().arguments().length() / 4);
        }
        return tokens;
    }

    /** JSON text cut into two or three non-empty pieces (fewer only when it is shorter), never inside a surrogate pair. */
    static List<String> fragments(String json) {
        int pieces = json.length() >= 12 ? 3 : Math.min(2, json.length());
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 1; i <= pieces; i++) {
            int end = i == pieces ? json.length() : json.length() * i / pieces;
            if (end < json.length() && end > start && Character.isLowSurrogate(json.charAt(end))) {
                end++;
            }
            if (end > start) {
                out.add(json.substring(start, end));
                start = end;
            }
        }
        return out;
    }
}
