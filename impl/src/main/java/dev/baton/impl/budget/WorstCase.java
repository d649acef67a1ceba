package dev.baton.impl.budget;

import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.ModelPrice;
import dev.baton.impl.config.ModelProfile;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Set;

/**
 * The most a request can cost on a model, before it is sent: what a budget holds for it. Input is bounded by the
 * request's size: a byte-level tokenizer never makes more tokens than the UTF-8 bytes of the text, and the JSON around
 * each message is longer than the few tokens a chat template adds (an operator who knows its traffic may count several
 * bytes per token, {@code baton.budgets.input-bytes-per-token}). Media parts (images, audio, files) count a fixed
 * {@link #MEDIA_TOKENS} each instead of their bytes. Output is bounded by {@code max_completion_tokens},
 * {@code max_tokens} or {@code max_output_tokens}, else the model's configured {@code max-output-tokens}, else the
 * configured default, times {@code n}. Input is priced at the higher of the input and cached-input rates.
 */
final class WorstCase {

    /** Above what one image costs on the listed models (OpenAI's high-detail tiles, Anthropic's largest image). */
    static final int MEDIA_TOKENS = 2_500;
    private static final Set<String> MEDIA = Set.of("image_url", "image", "input_audio", "file", "document");
    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

    private WorstCase() {
    }

    /** The most {@code body} can cost on {@code model}: 0 for an unpriced model, which budgets cannot count. */
    static BigDecimal cost(JsonObject body, String model, BatonConfig config) {
        ModelPrice price = config.price(model).orElse(null);
        if (price == null) {
            return BigDecimal.ZERO;
        }
        BigDecimal inputRate = price.input().max(price.cachedInput());
        int bytesPerToken = config.budgets().inputBytesPerToken();
        long input = (inputBytes(body, bytesPerToken) + bytesPerToken - 1) / bytesPerToken;
        long output = outputTokens(body, config.model(model), config.budgets().defaultOutputTokens());
        BigDecimal total = inputRate.multiply(BigDecimal.valueOf(input))
                .add(price.output().multiply(BigDecimal.valueOf(output)));
        return total.divide(MILLION, 12, RoundingMode.UP).stripTrailingZeros();
    }

    /**
     * The request's size as its input tokens see it: the UTF-8 bytes of its JSON, a media part counting
     * {@link #MEDIA_TOKENS} tokens of {@code bytesPerToken} bytes.
     */
    static long inputBytes(JsonValue value, int bytesPerToken) {
        return switch (value.getValueType()) {
            case STRING -> utf8Length(((JsonString) value).getString()) + 2;
            case NUMBER -> value.toString().length();
            case TRUE, FALSE, NULL -> 5;
            case ARRAY -> {
                long sum = 2;
                for (JsonValue item : (JsonArray) value) {
                    sum += inputBytes(item, bytesPerToken) + 1;
                }
                yield sum;
            }
            case OBJECT -> {
                JsonObject object = (JsonObject) value;
                if (object.get("type") instanceof JsonString type && MEDIA.contains(type.getString())) {
                    yield (long) MEDIA_TOKENS * bytesPerToken;
                }
                long sum = 2;
                for (var member : object.entrySet()) {
                    sum += utf8Length(member.getKey()) + 4 + inputBytes(member.getValue(), bytesPerToken);
                }
                yield sum;
            }
        };
    }

    /** At most this many output tokens: the request's own limit when it sets one, times {@code n}. */
    static long outputTokens(JsonObject body, ModelProfile profile, int defaultOutputTokens) {
        long perChoice = positive(body, "max_completion_tokens");
        if (perChoice == 0) {
            perChoice = positive(body, "max_tokens");
        }
        if (perChoice == 0) {
            perChoice = positive(body, "max_output_tokens"); // the Responses API's
        }
        if (perChoice == 0) {
            perChoice = profile.maxOutputTokens() > 0 ? profile.maxOutputTokens() : defaultOutputTokens;
        }
        long n = Math.max(1, positive(body, "n"));
        return perChoice * n;
    }

    private static long positive(JsonObject body, String field) {
        return body.get(field) instanceof JsonNumber number && number.isIntegral() ? Math.max(0, number.longValue()) : 0;
    }

    private static long utf8Length(String s) {
        long bytes = s.length();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                bytes += c >= 0x800 && !Character.isSurrogate(c) ? 2 : 1; // a surrogate pair is 4 bytes in all
            }
        }
        return bytes;
    }
}
