package dev.baton.testkit;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * One provider dialect: which path it answers and how its replies, streams and errors look on the wire.
 * The simulator speaks OpenAI chat completions; Anthropic Messages would be a second implementation.
 *
 * <p>Implementations must be stateless and thread-safe.
 */
interface WireFormat {

    /** What a playback needs to know about one request. */
    record Call(String id, long created, String account, String model, boolean stream, boolean includeUsage,
            int promptTokens) {
    }

    /** The POST path below {@code /{account}/v1} this dialect answers, e.g. {@code /chat/completions}. */
    String route();

    /** An error for a body the provider would refuse before any behaviour applies (null body: not JSON); else null. */
    Behavior.ApiError reject(JsonObject body);

    Call call(JsonObject body, String account, long sequence);

    /** Headers the provider puts on every answer to this route; {@code success} adds the rate-limit headers. */
    Map<String, String> headers(boolean success, long processingMillis);

    String completion(Call call, String text);

    /** The complete SSE frames of a successful stream, each ending in a blank line. */
    List<String> events(Call call, String text, boolean terminated);

    String errorEvent(Behavior.ApiError error);

    /** A frame whose data is not valid JSON, as a truncating proxy might produce. */
    String malformedEvent(Call call);

    String errorBody(Behavior.ApiError error, String model);
}
