package dev.baton;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An embeddings answer in OpenAI's {@code list} shape, with who served it. Its {@code data} is the provider's, as it
 * sent it: floats or base64 exactly as the request's {@code encoding_format} asked.
 *
 * @param body      the provider's answer
 * @param servedBy  the target that answered
 * @param requestId Baton's id for the request; its record is found by it
 * @param cost      the estimated cost at the served model's rate, or {@code null} (unpriced, or no usage reported)
 */
public record EmbeddingResponse(JsonObject body, ServedBy servedBy, String requestId, Cost cost) {

    public EmbeddingResponse {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(servedBy, "servedBy");
        Objects.requireNonNull(requestId, "requestId");
    }

    /** The vectors in input order, decoded from floats or from base64 (little-endian float32, as OpenAI sends). */
    public List<float[]> vectors() {
        List<float[]> vectors = new ArrayList<>();
        if (body.get("data") instanceof JsonArray data) {
            for (JsonValue item : data) {
                JsonValue embedding = item instanceof JsonObject o ? o.get("embedding") : null;
                if (embedding instanceof JsonArray floats) {
                    float[] vector = new float[floats.size()];
                    for (int i = 0; i < vector.length; i++) {
                        vector[i] = (float) ((JsonNumber) floats.get(i)).doubleValue();
                    }
                    vectors.add(vector);
                } else if (embedding instanceof JsonString base64) {
                    ByteBuffer bytes = ByteBuffer.wrap(Base64.getDecoder().decode(base64.getString()))
                            .order(ByteOrder.LITTLE_ENDIAN);
                    float[] vector = new float[bytes.remaining() / Float.BYTES];
                    bytes.asFloatBuffer().get(vector);
                    vectors.add(vector);
                }
            }
        }
        return vectors;
    }

    /** The provider's {@code usage} ({@code prompt_tokens}, {@code total_tokens}). */
    public Optional<JsonObject> usage() {
        return body.get("usage") instanceof JsonObject usage ? Optional.of(usage) : Optional.empty();
    }

    /** The body as an OpenAI-compatible client receives it: with the served-by members and the cost in its usage. */
    public JsonObject toJson() {
        return RequestFields.served(body, servedBy, cost);
    }
}
