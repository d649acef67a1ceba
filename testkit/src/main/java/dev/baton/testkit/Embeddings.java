package dev.baton.testkit;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Objects;

/**
 * The vectors the simulator's embeddings endpoints answer, so a test can compute what a gateway should have passed
 * through. A vector depends on the model, the input item and the dimensions only (never the account), so every
 * account serving a model answers the same bytes; it has unit length. It carries no meaning: different inputs give
 * unrelated, nearly orthogonal vectors.
 *
 * <p>The components are float32 values drawn from SplitMix64 seeded with a SHA-256 of (model, dimensions, input),
 * all written out here, so they are the same on every JVM. Stateless and thread-safe.
 */
public final class Embeddings {

    /** Nine significant digits always read back as the same float32, and BigDecimal rounds alike on every JDK. */
    private static final MathContext FLOAT_DIGITS = new MathContext(9, RoundingMode.HALF_EVEN);

    private Embeddings() {
    }

    /**
     * The dimensions a model answers when the request sets none: 3072 for {@code text-embedding-3-large}, 1536 for
     * {@code text-embedding-3-small}, {@code text-embedding-ada-002} and any other model.
     */
    public static int defaultDimensions(String model) {
        return "text-embedding-3-large".equals(model) ? 3072 : 1536;
    }

    /** The vector of one string input. */
    public static float[] vector(String model, String input, int dimensions) {
        Objects.requireNonNull(input, "input");
        return keyed(model, "text:" + input, dimensions);
    }

    /** The vector of one input given as token ids. */
    public static float[] vector(String model, int[] tokens, int dimensions) {
        StringBuilder key = new StringBuilder("tokens:");
        for (int token : tokens) {
            key.append(token).append(',');
        }
        return keyed(model, key.toString(), dimensions);
    }

    /** The vector as OpenAI's {@code encoding_format: "base64"} sends it: little-endian float32 bytes, base64. */
    public static String base64(float[] vector) {
        ByteBuffer bytes = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (float component : vector) {
            bytes.putFloat(component);
        }
        return Base64.getEncoder().encodeToString(bytes.array());
    }

    /**
     * A component as the simulator writes it in JSON: at most nine significant digits, plain notation, so the text
     * reads back as exactly the same float32 and is the same on every run and JDK.
     */
    public static String format(float component) {
        return new BigDecimal(component).round(FLOAT_DIGITS).stripTrailingZeros().toPlainString();
    }

    private static float[] keyed(String model, String key, int dimensions) {
        Objects.requireNonNull(model, "model");
        if (dimensions < 1) {
            throw new IllegalArgumentException("dimensions must be positive, was " + dimensions);
        }
        long state = seed(model + '\u0000' + dimensions + '\u0000' + key);
        double[] raw = new double[dimensions];
        double sumOfSquares = 0;
        for (int i = 0; i < dimensions; i++) {
            state += 0x9E3779B97F4A7C15L;
            long z = state;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            z ^= z >>> 31;
            raw[i] = (z >>> 11) * 0x1.0p-52 - 1.0; // uniform in [-1, 1)
            sumOfSquares += raw[i] * raw[i];
        }
        double norm = sumOfSquares > 0 ? Math.sqrt(sumOfSquares) : 1;
        float[] vector = new float[dimensions];
        for (int i = 0; i < dimensions; i++) {
            vector[i] = (float) (raw[i] / norm) + 0.0f; // + 0.0f turns -0.0 into 0.0, which JSON cannot tell apart
        }
        return vector;
    }

    private static long seed(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
