package dev.baton.impl.config;

import dev.baton.FailoverPolicy;
import dev.baton.FailureAction;
import dev.baton.FailureKind;
import org.eclipse.microprofile.config.Config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Turns a {@link FailoverPolicy} at one place in the application into a {@link PolicyOverride},
 * applying MicroProfile Fault Tolerance-style config overrides, and checks every value. Problems
 * are collected, each naming the config key or the annotation member it came from.
 */
public final class PolicyResolver {

    static final String ANNOTATION = FailoverPolicy.class.getSimpleName();
    private static final Duration MAX_TIMEOUT = Duration.ofHours(1);
    private static final Map<String, FailureKind> ACTION_PARAMS = actionParams();

    private final Config config;
    private final BatonConfig baton;
    private final List<String> problems = new ArrayList<>();

    public PolicyResolver(Config config, BatonConfig baton) {
        this.config = config;
        this.baton = baton;
    }

    /** Problems found so far, one line each. */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    /**
     * The override for an annotation declared at {@code type} (and {@code member}, a method or
     * field name, or {@code null} for the class itself).
     *
     * @return the override; {@link PolicyOverride#NONE} when the annotations are disabled there
     */
    public PolicyOverride resolve(FailoverPolicy annotation, Class<?> type, String member) {
        Site site = new Site(annotation, type.getName(), member);
        if (!site.read("enabled", "true", PolicyResolver::bool)) {
            return PolicyOverride.NONE;
        }
        Duration deadline = site.duration("deadline", annotation.deadline(), Duration.ofMillis(1), MAX_TIMEOUT);
        Duration attempt = site.duration("attemptTimeout", annotation.attemptTimeout(), Duration.ofMillis(1), MAX_TIMEOUT);
        Duration firstToken = site.duration("firstTokenTimeout", annotation.firstTokenTimeout(), Duration.ofMillis(1), MAX_TIMEOUT);
        Duration idle = site.duration("streamIdleTimeout", annotation.streamIdleTimeout(), Duration.ofMillis(1), MAX_TIMEOUT);
        Integer retries = site.read("sameTargetRetries", annotation.sameTargetRetries() == -1 ? null
                : String.valueOf(annotation.sameTargetRetries()), raw -> ConfigLoader.wholeNumber(raw, 0, 3));
        Duration backoff = site.duration("retryBackoff", annotation.retryBackoff(), Duration.ZERO, Duration.ofMinutes(1));
        Duration backoffMax = site.duration("retryBackoffMax", annotation.retryBackoffMax(), Duration.ZERO, Duration.ofMinutes(5));
        Duration maxWait = site.duration("maxWait", annotation.maxWait(), Duration.ZERO, RoutePolicy.MAX_MAX_WAIT);
        Map<FailureKind, FailureAction> actions = new EnumMap<>(FailureKind.class);
        ACTION_PARAMS.forEach((param, kind) -> {
            FailureAction action = site.read(param, annotatedAction(annotation, kind, site, param),
                    raw -> ConfigLoader.action(raw, kind));
            if (action != null) {
                actions.put(kind, action);
            }
        });
        List<String> fallbacks = site.read("fallbacks", annotation.fallbacks().length == 0 ? null
                : String.join(",", annotation.fallbacks()), this::fallbacks);
        String degraded = site.read("degraded", annotation.degraded(), ConfigLoader::degradedText);
        Balance balance = site.read("balance", annotation.balance(), Balance::parse);
        return new PolicyOverride(deadline, attempt, firstToken, idle, retries, backoff, backoffMax, maxWait, actions,
                fallbacks == null ? List.of() : fallbacks, degraded, balance, site.origin());
    }

    /** The config key of {@code param} for an annotation on {@code type} (and {@code member}). */
    public static String key(Class<?> type, String member, String param) {
        return type.getName() + (member == null ? "" : "/" + member) + "/" + ANNOTATION + "/" + param;
    }

    /** One declaration: reads a parameter from the narrowest config key that is set, else the annotation. */
    private final class Site {
        private final FailoverPolicy annotation;
        private final String type;
        private final String member;

        Site(FailoverPolicy annotation, String type, String member) {
            this.annotation = annotation;
            this.type = type;
            this.member = member;
        }

        String origin() {
            return "@" + ANNOTATION + " on " + type + (member == null ? "" : "." + member);
        }

        Duration duration(String param, String annotated, Duration min, Duration max) {
            return read(param, annotated, raw -> ConfigLoader.duration(raw, min, max));
        }

        /**
         * The parsed value of the first config key set for {@code param}, else of the annotation's
         * value; {@code null} when neither sets it or the value is invalid (then a problem is added).
         */
        <T> T read(String param, String annotated, Function<String, T> parse) {
            List<String> keys = new ArrayList<>();
            if (member != null) {
                keys.add(type + "/" + member + "/" + ANNOTATION + "/" + param);
            }
            keys.add(type + "/" + ANNOTATION + "/" + param);
            keys.add(ANNOTATION + "/" + param);
            for (String key : keys) {
                Optional<String> raw;
                try {
                    raw = config.getOptionalValue(key, String.class).map(String::strip).filter(s -> !s.isEmpty());
                } catch (RuntimeException e) {
                    problems.add(key + ": cannot be read: " + e.getMessage());
                    return null;
                }
                if (raw.isPresent()) {
                    return parse(raw.get(), parse, key + ConfigLoader.source(config, key));
                }
            }
            if (annotated == null || annotated.isBlank()) {
                return null;
            }
            return parse(annotated, parse, origin() + ", member " + param);
        }

        private <T> T parse(String raw, Function<String, T> parse, String where) {
            try {
                return parse.apply(raw);
            } catch (IllegalArgumentException e) {
                problems.add(where + ": " + e.getMessage());
                return null;
            }
        }
    }

    /** The annotation's single action for {@code kind}, or {@code null}; more than one is a problem. */
    private String annotatedAction(FailoverPolicy annotation, FailureKind kind, Site site, String param) {
        FailureAction[] given = switch (kind) {
            case CONNECTION -> annotation.onConnection();
            case TIMEOUT -> annotation.onTimeout();
            case RATE_LIMIT -> annotation.onRateLimit();
            case SPEND_LIMIT -> annotation.onSpendLimit();
            case SERVER_ERROR -> annotation.onServerError();
            case CREDENTIAL -> annotation.onCredential();
            case MODERATION -> annotation.onModeration();
            case INVALID_REQUEST -> annotation.onInvalidRequest();
            case MODEL_NOT_SERVED -> annotation.onModelNotServed();
        };
        if (given.length > 1) {
            problems.add(site.origin() + ", member " + param + ": names " + given.length
                    + " actions " + Arrays.toString(given) + "; give at most one");
            return null;
        }
        return given.length == 0 ? null : given[0].name();
    }

    private List<String> fallbacks(String raw) {
        List<String> models = ConfigLoader.list(raw);
        if (models.size() > BatonConfig.MAX_FALLBACKS) {
            throw new IllegalArgumentException("names " + models.size() + " models; at most "
                    + BatonConfig.MAX_FALLBACKS + " are allowed");
        }
        for (String model : models) {
            if (!baton.serves(model)) {
                throw new IllegalArgumentException("'" + model + "' is not a model any configured connection serves"
                        + (baton.routes().containsKey(model) ? " (it is a route; fallbacks name models)" : ""));
            }
        }
        if (models.stream().distinct().count() != models.size()) {
            throw new IllegalArgumentException("'" + raw + "' names a model twice");
        }
        return models;
    }

    private static Boolean bool(String raw) {
        return switch (raw.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("'" + raw + "' is not true or false");
        };
    }

    /** {@code onRateLimit} → {@code RATE_LIMIT}, for every kind. */
    private static Map<String, FailureKind> actionParams() {
        Map<String, FailureKind> params = new LinkedHashMap<>();
        for (FailureKind kind : FailureKind.values()) {
            StringBuilder name = new StringBuilder("on");
            for (String word : kind.name().split("_")) {
                name.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
            }
            params.put(name.toString(), kind);
        }
        return params;
    }
}
