package dev.baton.langchain4j;

import dev.baton.exception.FailoverDefinitionException;
import org.eclipse.microprofile.config.Config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which routes become named CDI beans, and under which names, read from MicroProfile Config
 * ({@code baton.langchain4j.*}, documented in docs/langchain4j.md). A wrong value is a deployment
 * error naming the key.
 */
record NamedModelSettings(List<NamedRoute> routes) {

    static final String PREFIX = "baton.langchain4j.";
    static final String ENABLED = PREFIX + "enabled";
    static final String ROUTES = PREFIX + "routes";
    static final String CHAT_NAME = PREFIX + "chat-model-name";
    static final String STREAMING_NAME = PREFIX + "streaming-chat-model-name";
    static final String JSON_SCHEMA_ROUTES = PREFIX + "json-schema-routes";
    private static final Set<String> KEYS = Set.of(ENABLED, ROUTES, CHAT_NAME, STREAMING_NAME, JSON_SCHEMA_ROUTES);

    static final String PLACEHOLDER = "{route}";
    static final String DEFAULT_CHAT_NAME = PLACEHOLDER;
    static final String DEFAULT_STREAMING_NAME = PLACEHOLDER + "-streaming";

    /** One route's two beans. */
    record NamedRoute(String route, String chatModelName, String streamingChatModelName, boolean jsonSchema) {
    }

    static NamedModelSettings read(Config config) {
        List<String> problems = new ArrayList<>();
        for (String key : config.getPropertyNames()) {
            if (key.startsWith(PREFIX) && !KEYS.contains(key)) {
                problems.add(key + ": unknown key; the keys under " + PREFIX + " are " + new TreeSet<>(KEYS));
            }
        }
        String enabled = config.getOptionalValue(ENABLED, String.class).orElse("true").trim();
        if (!enabled.equals("true") && !enabled.equals("false")) {
            problems.add(ENABLED + ": must be true or false but was '" + enabled + "'");
        }
        Set<String> configured = configuredRoutes(config);
        Set<String> chosen = list(config, ROUTES).map(LinkedHashSet::new).orElse(new LinkedHashSet<>(configured));
        Set<String> jsonSchema = new LinkedHashSet<>(list(config, JSON_SCHEMA_ROUTES).orElse(List.of()));
        unknownRoutes(ROUTES, chosen, configured, problems);
        unknownRoutes(JSON_SCHEMA_ROUTES, jsonSchema, chosen, problems);
        String chatPattern = pattern(config, CHAT_NAME, DEFAULT_CHAT_NAME, problems);
        String streamingPattern = pattern(config, STREAMING_NAME, DEFAULT_STREAMING_NAME, problems);

        List<NamedRoute> routes = new ArrayList<>();
        Map<String, String> owners = new LinkedHashMap<>();
        if (problems.isEmpty() && enabled.equals("true")) {
            for (String route : chosen) {
                NamedRoute named = new NamedRoute(route, chatPattern.replace(PLACEHOLDER, route),
                        streamingPattern.replace(PLACEHOLDER, route), jsonSchema.contains(route));
                claim(named.chatModelName(), "the ChatModel of route " + route, owners, problems);
                claim(named.streamingChatModelName(), "the StreamingChatModel of route " + route, owners, problems);
                routes.add(named);
            }
        }
        if (!problems.isEmpty()) {
            throw new FailoverDefinitionException("Baton's LangChain4j models are misconfigured:\n  - "
                    + String.join("\n  - ", problems));
        }
        return new NamedModelSettings(List.copyOf(routes));
    }

    /** The routes Baton reads: those listed in {@code baton.routes}, else every {@code baton.routes.<name>.targets}. */
    private static Set<String> configuredRoutes(Config config) {
        Optional<List<String>> listed = list(config, "baton.routes");
        if (listed.isPresent()) {
            return new TreeSet<>(listed.get());
        }
        Set<String> routes = new TreeSet<>();
        for (String key : config.getPropertyNames()) {
            if (key.startsWith("baton.routes.") && key.endsWith(".targets")) {
                String name = key.substring("baton.routes.".length(), key.length() - ".targets".length());
                if (!name.isEmpty() && !name.contains(".")) {
                    routes.add(name);
                }
            }
        }
        return routes;
    }

    private static Optional<List<String>> list(Config config, String key) {
        return config.getOptionalValue(key, String.class).map(v -> Arrays.stream(v.split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).toList());
    }

    private static void unknownRoutes(String key, Set<String> named, Set<String> known, List<String> problems) {
        for (String route : named) {
            if (!known.contains(route)) {
                problems.add(key + ": '" + route + "' is not " + (key.equals(ROUTES) ? "a configured route" : "in "
                        + ROUTES) + "; the choices are " + known);
            }
        }
    }

    private static String pattern(Config config, String key, String fallback, List<String> problems) {
        String value = config.getOptionalValue(key, String.class).map(String::trim).orElse(fallback);
        if (!value.contains(PLACEHOLDER)) {
            problems.add(key + ": must contain " + PLACEHOLDER + " (replaced by the route's name) but was '" + value + "'");
        } else if (!value.replace(PLACEHOLDER, "r").matches("[A-Za-z0-9_.\\-]+")) {
            problems.add(key + ": may hold letters, digits, '.', '-', '_' and " + PLACEHOLDER + " only, but was '"
                    + value + "'");
        }
        return value;
    }

    private static void claim(String name, String owner, Map<String, String> owners, List<String> problems) {
        String earlier = owners.putIfAbsent(name, owner);
        if (earlier != null) {
            problems.add(CHAT_NAME + " / " + STREAMING_NAME + ": " + owner + " and " + earlier
                    + " would both be named '" + name + "'");
        }
    }
}
