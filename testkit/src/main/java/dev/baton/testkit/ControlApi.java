package dev.baton.testkit;

import static dev.baton.testkit.JsonSupport.JSON;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON control API under {@code /__sim/}, so a standalone simulator can be scripted with curl.
 *
 * <p>Thread-safe; it keeps no state of its own.
 */
final class ControlApi {

    static final String PREFIX = "/__sim/";

    /** A status and JSON body to send back. */
    record Answer(int status, String body) {
    }

    private final ProviderSimulator simulator;

    ControlApi(ProviderSimulator simulator) {
        this.simulator = simulator;
    }

    Answer handle(String method, String path, String body) {
        String[] parts = path.substring(PREFIX.length()).split("/");
        try {
            if (parts.length == 1 && parts[0].equals("reset") && method.equals("POST")) {
                simulator.reset();
                return ok(JSON.createObjectBuilder().add("reset", true).build());
            }
            if (parts.length == 3 && parts[0].equals("accounts") && ProviderSimulator.isAccountName(parts[1])) {
                Account account = simulator.account(parts[1]);
                switch (method + " " + parts[2]) {
                    case "POST script":
                        return script(account, body);
                    case "PUT default":
                        Behavior fallback = BehaviorJson.parse(parse(body), "");
                        account.setDefault(fallback);
                        return ok(described(account).add("default", fallback.toString()).build());
                    case "POST fail-for":
                        return failFor(account, body);
                    case "GET requests":
                        return ok(requests(account));
                    case "PUT aws-credentials":
                        return awsCredentials(account, body);
                    default:
                        break;
                }
            }
            if (parts.length == 2 && parts[0].equals("google")) {
                Answer answer = google(method + " " + parts[1], body);
                if (answer != null) {
                    return answer;
                }
            }
            return error(404, "Unknown control endpoint (" + method + " " + path + ")", null);
        } catch (BehaviorJson.InvalidBehavior e) {
            return error(400, e.getMessage(), e.field);
        }
    }

    private static Answer script(Account account, String body) {
        JsonObject request = parse(body);
        if (!(request.get("behaviors") instanceof JsonArray array)) {
            throw new BehaviorJson.InvalidBehavior("behaviors", "must be an array of behavior objects");
        }
        List<Behavior> behaviors = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            behaviors.add(BehaviorJson.parse(array.get(i), "behaviors[" + i + "]"));
        }
        account.enqueue(behaviors.toArray(Behavior[]::new));
        JsonArrayBuilder names = JSON.createArrayBuilder();
        behaviors.forEach(b -> names.add(b.toString()));
        return ok(described(account).add("enqueued", names).build());
    }

    private static Answer failFor(Account account, String body) {
        JsonObject request = parse(body);
        if (!(request.get("duration_ms") instanceof JsonNumber n) || !n.isIntegral() || n.longValue() < 0) {
            throw new BehaviorJson.InvalidBehavior("duration_ms", "must be a non-negative integer");
        }
        Behavior failure = BehaviorJson.parse(request.get("behavior"), "behavior");
        account.failFor(Duration.ofMillis(n.longValue()), failure);
        return ok(described(account).add("failing_for_ms", n.longValue()).add("behavior", failure.toString()).build());
    }

    /** Bedrock requests to the account must be signed with this key from now on; the secret is never echoed. */
    private static Answer awsCredentials(Account account, String body) {
        JsonObject request = parse(body);
        if (!(request.get("access_key_id") instanceof JsonString id) || id.getString().isEmpty()) {
            throw new BehaviorJson.InvalidBehavior("access_key_id", "must be a non-empty string");
        }
        if (!(request.get("secret_access_key") instanceof JsonString secret) || secret.getString().isEmpty()) {
            throw new BehaviorJson.InvalidBehavior("secret_access_key", "must be a non-empty string");
        }
        account.awsCredentials(id.getString(), secret.getString());
        return ok(described(account).add("aws_access_key_id", id.getString()).build());
    }

    /** The token endpoint of the simulated Google, for game days; null for an unknown action. */
    private Answer google(String action, String body) {
        GoogleCloud google = simulator.google();
        switch (action) {
            case "POST expire-tokens":
                google.expireTokens();
                return ok(JSON.createObjectBuilder().add("expired", true).build());
            case "POST fail-token-requests": {
                JsonObject request = parse(body);
                int count = integer(request, "count");
                int status = integer(request, "status");
                if (status < 400 || status > 599) {
                    throw new BehaviorJson.InvalidBehavior("status", "must be between 400 and 599");
                }
                google.failTokenRequests(count, status);
                return ok(JSON.createObjectBuilder().add("failing", count).add("status", status).build());
            }
            case "PUT token-lifetime": {
                int seconds = integer(parse(body), "seconds");
                if (seconds == 0) {
                    throw new BehaviorJson.InvalidBehavior("seconds", "must be positive");
                }
                google.tokenLifetime(Duration.ofSeconds(seconds));
                return ok(JSON.createObjectBuilder().add("token_lifetime_s", seconds).build());
            }
            case "PUT token-delay": {
                int millis = integer(parse(body), "ms");
                google.tokenDelay(Duration.ofMillis(millis));
                return ok(JSON.createObjectBuilder().add("token_delay_ms", millis).build());
            }
            default:
                return null;
        }
    }

    private static int integer(JsonObject request, String field) {
        if (!(request.get(field) instanceof JsonNumber n) || !n.isIntegral() || n.intValue() < 0) {
            throw new BehaviorJson.InvalidBehavior(field, "must be a non-negative integer");
        }
        return n.intValue();
    }

    /** The log without header values, so API keys sent by the client are never echoed. */
    private static JsonArray requests(Account account) {
        JsonArrayBuilder list = JSON.createArrayBuilder();
        for (RecordedRequest r : account.requests()) {
            JsonObject body = JsonSupport.parseObject(r.body());
            var entry = JSON.createObjectBuilder()
                    .add("method", r.method())
                    .add("path", r.path())
                    .add("received_at", r.receivedAt().toString());
            r.queryParameter("api-version").ifPresent(v -> entry.add("api_version", v)); // never the whole query
            String[] bedrock = r.path().split("/", 5); // Bedrock: the model and the streaming are in the path
            if (bedrock.length == 5 && bedrock[2].equals("model")) {
                entry.add("model", java.net.URLDecoder.decode(bedrock[3], java.nio.charset.StandardCharsets.UTF_8));
                list.add(entry.add("stream", bedrock[4].equals("converse-stream")));
                continue;
            }
            if (body != null && body.get("model") instanceof JsonString model) {
                entry.add("model", model.getString());
            } else {
                entry.addNull("model");
            }
            list.add(entry.add("stream", body != null && body.getBoolean("stream", false)));
        }
        return list.build();
    }

    private static JsonObjectBuilder described(Account account) {
        return JSON.createObjectBuilder().add("account", account.name());
    }

    private static JsonObject parse(String body) {
        JsonObject object = JsonSupport.parseObject(body);
        if (object == null) {
            throw new BehaviorJson.InvalidBehavior("body", "must be a JSON object");
        }
        return object;
    }

    private static Answer ok(JsonValue json) {
        return new Answer(200, json.toString());
    }

    private static Answer error(int status, String message, String param) {
        return new Answer(status, OpenAiWire.INSTANCE.errorBody(
                Behavior.ApiError.of(status, "invalid_request_error", null, param, message), null, null));
    }
}
