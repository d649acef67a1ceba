package dev.baton.impl.gemini;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import java.io.StringReader;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Google's error shape, {@code {"error":{"code":429,"message":…,"status":"RESOURCE_EXHAUSTED","details":[…]}}}, as
 * Google's APIs send it, sometimes inside a one-element array (the Gemini API's OpenAI-compatible endpoint). The
 * details read are {@code google.rpc.ErrorInfo}'s {@code reason} and {@code google.rpc.RetryInfo}'s
 * {@code retryDelay}. Immutable.
 *
 * @param code       {@code error.code}, the HTTP status Google meant, or 0
 * @param status     {@code error.status}, a {@code google.rpc.Code} name such as {@code RESOURCE_EXHAUSTED}
 * @param message    {@code error.message}, or {@code null}
 * @param reason     the first {@code ErrorInfo.reason}, such as {@code API_KEY_INVALID}, or {@code null}
 * @param retryDelay the first {@code RetryInfo.retryDelay}, or {@code null}
 */
public record GoogleError(int code, String status, String message, String reason, Duration retryDelay) {

    /** Looked up once: {@code Json.create…} looks the provider up on every call. */
    private static final JsonProvider JSON = JsonProvider.provider();

    /** A protobuf Duration in JSON: seconds with up to nine decimals, then {@code s}. */
    private static final Pattern PROTO_DURATION = Pattern.compile("(\\d{1,12})(\\.\\d{1,9})?s");

    /**
     * The Google error in {@code body}, or {@code null} when the body is no Google error: not JSON, no {@code error}
     * object, or one without a string {@code status} (OpenAI's and Anthropic's errors have none).
     */
    public static GoogleError parse(String body) {
        JsonValue value;
        try (var reader = JSON.createReader(new StringReader(body))) {
            value = reader.readValue();
        } catch (RuntimeException e) {
            return null; // an HTML page from a proxy, or a cut body
        }
        if (value instanceof JsonArray array && array.size() == 1) {
            value = array.get(0);
        }
        if (!(value instanceof JsonObject object) || !(object.get("error") instanceof JsonObject error)
                || !(error.get("status") instanceof JsonString status)) {
            return null;
        }
        int code = error.get("code") instanceof JsonNumber n && n.isIntegral() ? n.intValue() : 0;
        String message = error.get("message") instanceof JsonString m ? m.getString() : null;
        String reason = null;
        Duration retryDelay = null;
        if (error.get("details") instanceof JsonArray details) {
            for (JsonValue detail : details) {
                if (!(detail instanceof JsonObject d) || !(d.get("@type") instanceof JsonString type)) {
                    continue;
                }
                if (reason == null && type.getString().endsWith("google.rpc.ErrorInfo")
                        && d.get("reason") instanceof JsonString r) {
                    reason = r.getString();
                } else if (retryDelay == null && type.getString().endsWith("google.rpc.RetryInfo")
                        && d.get("retryDelay") instanceof JsonString delay) {
                    retryDelay = protoDuration(delay.getString());
                }
            }
        }
        return new GoogleError(code, status.getString(), message, reason, retryDelay);
    }

    /** {@code "7s"}, {@code "0.5s"}, {@code "1.234567s"} to a duration; {@code null} for anything else. */
    static Duration protoDuration(String text) {
        Matcher m = PROTO_DURATION.matcher(text);
        if (!m.matches()) {
            return null;
        }
        BigDecimal seconds = new BigDecimal(m.group(1) + (m.group(2) == null ? "" : m.group(2)));
        return Duration.ofNanos(seconds.movePointRight(9).longValueExact());
    }

    /** "HTTP 429 RESOURCE_EXHAUSTED (reason): message", for a failure's message (redact it before use). */
    public String describe(int httpStatus) {
        return "HTTP " + httpStatus + " " + status + (reason != null ? " (" + reason + ")" : "")
                + (message != null ? ": " + message : "");
    }
}
