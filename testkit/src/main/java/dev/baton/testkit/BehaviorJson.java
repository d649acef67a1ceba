package dev.baton.testkit;

import static java.util.Map.entry;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Maps the control API's behaviour objects, e.g. {@code {"type":"rate_limited","retry_after_ms":2000}}, onto the
 * {@link Behavior} factories and modifiers.
 *
 * <p>Stateless and thread-safe.
 */
final class BehaviorJson {

    /** A behaviour object the mapping refuses; {@link #field} is the JSON path of the offending field. */
    static final class InvalidBehavior extends IllegalArgumentException {
        final String field;

        InvalidBehavior(String field, String problem) {
            super(field + ": " + problem);
            this.field = field;
        }
    }

    private static final Map<String, Function<Fields, Behavior>> TYPES = Map.ofEntries(
            entry("ok", f -> Behavior.ok()),
            entry("reply", f -> Behavior.reply(f.text("text"))),
            entry("tool_call", f -> {
                String name = f.text("name");
                String arguments = f.jsonText("arguments");
                String text = f.optionalText("text");
                return text == null ? Behavior.toolCall(name, arguments)
                        : Behavior.reply(text).thenToolCall(name, arguments);
            }),
            entry("status", f -> Behavior.status(f.integer("status"), f.text("body"))),
            entry("openai_error", f -> Behavior.openAiError(f.integer("status"), f.text("error_type"),
                    f.optionalText("code"), f.text("message"))),
            entry("anthropic_error", f -> Behavior.anthropicError(f.integer("status"), f.text("error_type"),
                    f.text("message"))),
            entry("bedrock_error", f -> Behavior.bedrockError(f.integer("status"), f.text("error_type"),
                    f.text("message"))),
            entry("rate_limited", f -> Behavior.rateLimited(f.millis("retry_after_ms"))),
            entry("rate_limited_no_retry_after", f -> Behavior.rateLimitedWithoutRetryAfter()),
            entry("slow_down", f -> Behavior.slowDown()),
            entry("spend_limit", f -> Behavior.spendLimit(f.text("code"))),
            entry("billing_error", f -> Behavior.billingError()),
            entry("enforced_spend_limit", f -> Behavior.enforcedSpendLimit()),
            entry("usage_limit_reached", f -> Behavior.usageLimitReached()),
            entry("workspace_usage_limit_reached", f -> Behavior.workspaceUsageLimitReached()),
            entry("overloaded", f -> Behavior.overloaded()),
            entry("server_error", f -> Behavior.serverError()),
            entry("bad_gateway", f -> Behavior.badGateway()),
            entry("gateway_timeout", f -> Behavior.gatewayTimeout()),
            entry("invalid_request", f -> Behavior.invalidRequest(f.text("message"), f.optionalText("param"))),
            entry("context_length_exceeded", f -> Behavior.contextLengthExceeded()),
            entry("content_policy_violation", f -> Behavior.contentPolicyViolation()),
            entry("azure_content_filter", f -> Behavior.azureContentFilter()),
            entry("unauthorized", f -> Behavior.unauthorized()),
            entry("forbidden", f -> Behavior.forbidden()),
            entry("model_not_found", f -> Behavior.modelNotFound()),
            entry("no_response", f -> Behavior.noResponse()),
            entry("reset", f -> Behavior.resetBeforeHeaders()));

    private BehaviorJson() {
    }

    /** Builds the behaviour described at {@code where} (a JSON path such as {@code behaviors[2]}, or empty). */
    static Behavior parse(JsonValue json, String where) {
        if (!(json instanceof JsonObject object)) {
            throw new InvalidBehavior(where.isEmpty() ? "body" : where, "must be a JSON object");
        }
        Fields f = new Fields(object, where);
        String type = f.text("type");
        Function<Fields, Behavior> factory = TYPES.get(type);
        if (factory == null) {
            throw new InvalidBehavior(f.path("type"), "unknown type '" + type + "', expected one of "
                    + new TreeSet<>(TYPES.keySet()));
        }
        Behavior b = f.construct(factory);
        b = modify(b, f, "delay_ms", Fields::millis, Behavior::afterDelay);
        b = modify(b, f, "first_token_delay_ms", Fields::millis, Behavior::firstTokenDelay);
        b = modify(b, f, "event_interval_ms", Fields::millis, Behavior::eventInterval);
        b = modify(b, f, "cut_after", Fields::integer, Behavior::cutAfter);
        b = modify(b, f, "stall_after", Fields::integer, Behavior::stallAfter);
        b = modify(b, f, "malformed_after", Fields::integer, Behavior::malformedEventAfter);
        b = modify(b, f, "stream_error_after", Fields::integer, (base, events) -> base.streamErrorAfter(events,
                f.text("error_type"), f.optionalText("code"), f.text("message")));
        b = modify(b, f, "without_done", Fields::bool, (base, yes) -> yes ? base.withoutDone() : base);
        b = modify(b, f, "usage_choices_null", Fields::bool, (base, yes) -> yes ? base.usageChoicesNull() : base);
        if (f.has("headers")) {
            JsonObject headers = f.object("headers");
            for (Map.Entry<String, JsonValue> header : headers.entrySet()) {
                String field = f.path("headers") + "." + header.getKey();
                if (!(header.getValue() instanceof JsonString value)) {
                    throw new InvalidBehavior(field, "must be a string");
                }
                Behavior base = b;
                b = Fields.blameOn(field, () -> base.withHeader(header.getKey(), value.getString()));
            }
        }
        f.rejectUnread();
        return b;
    }

    private static <T> Behavior modify(Behavior b, Fields f, String field, BiFunction<Fields, String, T> read,
            BiFunction<Behavior, T, Behavior> apply) {
        if (!f.has(field)) {
            return b;
        }
        T value = read.apply(f, field);
        return f.blame(field, () -> apply.apply(b, value));
    }

    /** Typed access to one JSON object that remembers which fields were read, so typos can be reported. */
    private static final class Fields {
        private final JsonObject object;
        private final String where;
        private final Set<String> read = new HashSet<>();

        Fields(JsonObject object, String where) {
            this.object = object;
            this.where = where;
        }

        String path(String field) {
            return where.isEmpty() ? field : where + "." + field;
        }

        boolean has(String field) {
            read.add(field);
            return object.containsKey(field) && object.get(field) != JsonValue.NULL;
        }

        String text(String field) {
            if (!(require(field) instanceof JsonString s)) {
                throw new InvalidBehavior(path(field), "must be a string");
            }
            return s.getString();
        }

        /** A JSON object given either as a string of JSON text or inline; returns its text. */
        String jsonText(String field) {
            JsonValue value = require(field);
            if (value instanceof JsonObject o) {
                return o.toString();
            }
            if (value instanceof JsonString s) {
                return s.getString();
            }
            throw new InvalidBehavior(path(field), "must be a JSON object or a string holding one");
        }

        String optionalText(String field) {
            return has(field) ? text(field) : null;
        }

        int integer(String field) {
            if (require(field) instanceof JsonNumber n && n.isIntegral()) {
                try {
                    return n.intValueExact();
                } catch (ArithmeticException e) {
                    // falls through to the same complaint as any other non-integer
                }
            }
            throw new InvalidBehavior(path(field), "must be an integer");
        }

        Duration millis(String field) {
            int millis = integer(field);
            if (millis < 0) {
                throw new InvalidBehavior(path(field), "must not be negative");
            }
            return Duration.ofMillis(millis);
        }

        boolean bool(String field) {
            JsonValue value = require(field);
            if (value != JsonValue.TRUE && value != JsonValue.FALSE) {
                throw new InvalidBehavior(path(field), "must be true or false");
            }
            return value == JsonValue.TRUE;
        }

        JsonObject object(String field) {
            if (!(require(field) instanceof JsonObject o)) {
                throw new InvalidBehavior(path(field), "must be a JSON object");
            }
            return o;
        }

        /**
         * Runs a factory. Its complaints start with the parameter's name, which matches the JSON field for every
         * factory that validates, so that field is the one reported.
         */
        Behavior construct(Function<Fields, Behavior> factory) {
            try {
                return factory.apply(this);
            } catch (InvalidBehavior e) {
                throw e;
            } catch (IllegalArgumentException e) {
                String culprit = read.stream().filter(name -> e.getMessage().startsWith(name + " ")).findFirst()
                        .map(this::path).orElse(where.isEmpty() ? "body" : where);
                throw new InvalidBehavior(culprit, e.getMessage());
            }
        }

        /** Runs a modifier, reporting its argument complaints against {@code field}. */
        Behavior blame(String field, Supplier<Behavior> step) {
            return blameOn(path(field), step);
        }

        static Behavior blameOn(String path, Supplier<Behavior> step) {
            try {
                return step.get();
            } catch (InvalidBehavior e) {
                throw e;
            } catch (IllegalArgumentException e) {
                throw new InvalidBehavior(path, e.getMessage());
            }
        }

        void rejectUnread() {
            for (String field : object.keySet()) {
                if (!read.contains(field)) {
                    throw new InvalidBehavior(path(field), "unknown field");
                }
            }
        }

        private JsonValue require(String field) {
            if (!has(field)) {
                throw new InvalidBehavior(path(field), "is required");
            }
            return object.get(field);
        }
    }
}
