package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import dev.baton.exception.RequestRejectedException;
import dev.baton.impl.balance.Balancer;
import dev.baton.impl.balance.Pool;
import dev.baton.impl.config.Balance;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.ConnectionConfig;
import dev.baton.impl.config.PolicyOverride;
import dev.baton.impl.config.RouteConfig;
import dev.baton.impl.config.RoutePolicy;
import dev.baton.impl.config.TargetRef;
import dev.baton.impl.health.Availability;
import dev.baton.impl.health.HealthRegistry;
import dev.baton.spi.ProviderTarget;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Admits a request and plans its chain: the admit and plan stages of the pipeline. Refusals here
 * call no provider. Thread-safe: after construction its only state is the cache of route resolutions.
 */
final class Planner {

    /** The body fields that name a caller's session, in the order they are looked for. */
    private static final List<String> SESSION_FIELDS = List.of("prompt_cache_key", "user", "safety_identifier");

    private final BatonConfig config;
    private final Map<TargetRef, ProviderTarget> targets = new HashMap<>();
    /** The connections serving each model a request may name, in the order a chain tries them, looked up once. */
    private final Map<String, List<ConnectionConfig>> serving = new HashMap<>();
    /** Each route's resolution under its own policy, built once: what nearly every request asks for. */
    private final Map<String, Resolution> routes = new ConcurrentHashMap<>();

    Planner(BatonConfig config) {
        this.config = config;
        for (ConnectionConfig c : config.connections()) {
            c.modelIds().forEach((model, id) -> targets.put(new TargetRef(c.name(), model), new ProviderTarget(c.name(),
                    c.provider(), c.baseUrl(), c.apiKey(), id, c.headers(), c.alternateBaseUrls(), c.settings(id))));
            c.modelIds().keySet().forEach(model -> serving.computeIfAbsent(model, config::servingModel));
        }
    }

    /**
     * Validates the request and resolves its model, with the caller's policy applied over the
     * route's (or the defaults).
     *
     * @throws RequestRejectedException for a bad body, an unknown model or route, or unknown fallbacks
     */
    Resolution admit(ChatRequest request, PolicyOverride override, Api api) {
        JsonObject body = request.body();
        if (!(body.get("model") instanceof JsonString model) || model.getString().isBlank()) {
            throw RequestRejectedException.invalidRequest("`model` is required and must be a string", "model");
        }
        if (api == Api.CHAT) {
            checkMessages(body.get("messages"));
        } else if (!(body.get("input") instanceof JsonString || body.get("input") instanceof JsonArray input
                && !input.isEmpty())) {
            // The rest of the input is the provider's (or the translation's) to judge.
            throw RequestRejectedException.invalidRequest("`input` must be a string or a non-empty array", "input");
        }
        JsonValue stream = body.get("stream");
        if (stream != null && stream != JsonValue.TRUE && stream != JsonValue.FALSE && stream != JsonValue.NULL) {
            throw RequestRejectedException.invalidRequest("`stream` must be a boolean", "stream");
        }
        List<String> fallbacks = request.fallbacks();
        if (fallbacks.size() > BatonConfig.MAX_FALLBACKS) {
            throw RequestRejectedException.invalidRequest("`fallbacks` may name at most " + BatonConfig.MAX_FALLBACKS
                    + " models but named " + fallbacks.size(), "fallbacks");
        }
        // An unknown fallback is refused even when a route ignores fallbacks: a typo never passes for a working one.
        List<String> unknown = new ArrayList<>();
        for (int i = 0; i < fallbacks.size(); i++) {
            if (!serving.containsKey(fallbacks.get(i))) {
                unknown.add("fallbacks[" + i + "]: `" + fallbacks.get(i) + "` is not a model any configured connection serves"
                        + (config.routes().containsKey(fallbacks.get(i)) ? " (it is a route; fallbacks name models)." : "."));
            }
        }
        if (!unknown.isEmpty()) {
            throw RequestRejectedException.unknownFallbacks(unknown);
        }
        String name = model.getString();
        RouteConfig route = config.routes().get(name);
        if (route != null && override.equals(PolicyOverride.NONE)) {
            // A route's chain is its targets alone: the caller's fallbacks do not change it.
            return routes.computeIfAbsent(name, n -> resolve(n, route, override, List.of()));
        }
        return resolve(name, route, override, fallbacks);
    }

    private static void checkMessages(JsonValue value) {
        if (!(value instanceof JsonArray messages) || messages.isEmpty()) {
            throw RequestRejectedException.invalidRequest("`messages` must be a non-empty array", "messages");
        }
        for (int i = 0; i < messages.size(); i++) {
            if (!(messages.get(i) instanceof JsonObject m) || !(m.get("role") instanceof JsonString)) {
                throw RequestRejectedException.invalidRequest("messages[" + i + "] must be an object with a `role`",
                        "messages[" + i + "]");
            }
            checkContent(m.get("content"), "messages[" + i + "].content");
        }
    }

    /** The chain of {@code name} (a route, or else a model and its fallbacks) under the route's policy and the caller's. */
    private Resolution resolve(String name, RouteConfig route, PolicyOverride override, List<String> fallbacks) {
        RoutePolicy policy = (route != null ? route.policy() : config.defaults()).with(override);
        List<Candidate> chain = new ArrayList<>();
        List<String> models = new ArrayList<>();
        if (route != null) {
            for (TargetRef ref : route.targets()) {
                int tier = route.tier(ref);
                // Priority keeps today's rule inside a tier (same model before another); balancing treats a tier as one group.
                int group = policy.balance() == Balance.PRIORITY ? groupOf(chain, tier, ref.model()) : groupOf(chain, tier, null);
                chain.add(new Candidate(ref.model(), targets.get(ref), chain.size(), group, Pool.tier(name, tier + 1),
                        route.weight(ref)));
                models.add(ref.model());
            }
        } else if (!serving.containsKey(name)) {
            throw unserved(name);
        }
        // A route's targets are its whole chain; the caller's fallbacks apply to a named model only.
        List<String> extra = new ArrayList<>(route == null ? List.of(name) : List.of());
        if (route == null) {
            extra.addAll(fallbacks);
        }
        extra.addAll(override.fallbacks());
        int group = chain.stream().mapToInt(Candidate::group).max().orElse(-1) + 1;
        for (String m : extra) {
            if (models.contains(m)) {
                continue;
            }
            models.add(m);
            for (ConnectionConfig c : serving.getOrDefault(m, List.of())) {
                chain.add(new Candidate(m, targets.get(new TargetRef(c.name(), m)), chain.size(), group));
            }
            group++;
        }
        return new Resolution(route != null ? name : null, policy, List.copyOf(chain));
    }

    /**
     * Why no connection serves {@code model}: no connection serves its vendor (503 {@code no_provider_connected}), or
     * none knows the model (404).
     */
    private RequestRejectedException unserved(String model) {
        int slash = model.indexOf('/');
        if (slash <= 0 || slash == model.length() - 1) {
            return RequestRejectedException.unknownModel(model);
        }
        String vendor = model.substring(0, slash);
        if (!config.servesVendor(vendor)) {
            return RequestRejectedException.noProviderConnected(model, vendor);
        }
        return RequestRejectedException.unknownModel(model, "No connection serving " + vendor + "'s models knows it: "
                + "name the provider's id for it in baton.connections.<name>.model-ids." + model + ".");
    }

    /**
     * {@code content} is absent, null (an assistant's tool calls), a string, or an array of parts,
     * each an object with a string {@code type} (and a string {@code text} when it is a text part):
     * a mistyped one is the caller's 400 here, not a provider's puzzling answer later.
     */
    private static void checkContent(JsonValue content, String param) {
        if (content == null || content == JsonValue.NULL || content instanceof JsonString) {
            return;
        }
        if (!(content instanceof JsonArray parts)) {
            throw RequestRejectedException.invalidRequest(param + " must be a string or an array of parts", param);
        }
        for (int p = 0; p < parts.size(); p++) {
            if (!(parts.get(p) instanceof JsonObject part) || !(part.get("type") instanceof JsonString type)
                    || type.getString().equals("text") && !(part.get("text") instanceof JsonString)) {
                throw RequestRejectedException.invalidRequest(param + "[" + p + "] must be an object with a string "
                        + "`type` (and a string `text` for a text part)", param + "[" + p + "]");
            }
        }
    }

    /** The group of a route target in {@code tier}: that of an earlier target of the tier (and the model, when given), else a new one. */
    private static int groupOf(List<Candidate> chain, int tier, String model) {
        int last = -1;
        for (Candidate c : chain) {
            if (c.pool().tier() == tier + 1 && (model == null || c.model().equals(model))) {
                return c.group();
            }
            last = Math.max(last, c.group());
        }
        return last + 1;
    }

    /**
     * The targets to try and those left out.
     *
     * @param order   the eligible targets, ordered for trying by {@link #order}
     * @param skipped the targets whose model cannot serve the request as configured, with the reason, in chain order
     */
    record Plan(List<Candidate> order, List<FinalError.Skip> skipped) {
    }

    /**
     * The plan stage: every target whose model cannot serve {@code body} as configured
     * ({@link Eligibility}) is skipped with its reason and never attempted; the rest are ordered by
     * {@link #order}, and under any strategy but priority the usable head of each group is put in
     * the strategy's order ({@link #balance}).
     *
     * @param sessionKey the caller's key for sticky balancing, or {@code null}
     */
    static Plan plan(List<Candidate> chain, JsonObject body, BatonConfig config, HealthRegistry health,
                     Balancer balancer, Balance balance, String sessionKey) {
        Eligibility.Needs needs = Eligibility.Needs.of(body);
        List<Candidate> eligible = new ArrayList<>();
        List<FinalError.Skip> skipped = new ArrayList<>();
        for (Candidate c : chain) {
            String reason = Eligibility.reasonToSkip(config.model(c.model()), needs);
            if (reason == null) {
                eligible.add(c);
            } else {
                skipped.add(new FinalError.Skip(c.name(), c.position(), reason, null, false, true));
            }
        }
        List<Candidate> order = order(eligible, health);
        if (balance != Balance.PRIORITY) {
            order = balance(order, health, balancer, balance, sessionKey);
        }
        return new Plan(order, List.copyOf(skipped));
    }

    /**
     * Balancing inside each group of an {@link #order}ed plan: the targets usable now (and not
     * deprioritised for their model) lead their group; the balancer puts them in its order, the
     * pick first and the rest after it. Parked and ejected targets stay behind them, by recovery,
     * and the next group after, so failover composes with any strategy.
     */
    static List<Candidate> balance(List<Candidate> ordered, HealthRegistry health, Balancer balancer, Balance balance,
                                   String sessionKey) {
        List<Candidate> result = new ArrayList<>(ordered.size());
        int i = 0;
        while (i < ordered.size()) {
            int group = ordered.get(i).group();
            List<Candidate> usable = new ArrayList<>();
            while (i < ordered.size() && ordered.get(i).group() == group && fresh(ordered.get(i), health)) {
                usable.add(ordered.get(i++));
            }
            if (!usable.isEmpty()) {
                result.addAll(balancer.order(balance, usable.get(0).pool(), usable, Candidate::name, Candidate::weight,
                        sessionKey));
            }
            while (i < ordered.size() && ordered.get(i).group() == group) {
                result.add(ordered.get(i++));
            }
        }
        return result;
    }

    private static boolean fresh(Candidate c, HealthRegistry health) {
        Availability a = health.of(c.target().connection()).availability(c.target().model());
        return a.usableNow() && !a.deprioritised();
    }

    /**
     * The key a sticky route keeps on one target: the caller's session ({@code x-baton-session}, or
     * {@link ChatRequest#session()}), else OpenAI's {@code prompt_cache_key}, {@code user} or
     * {@code safety_identifier} from the body; {@code null} when there is none.
     */
    static String sessionKey(ChatRequest request) {
        if (request.session().isPresent()) {
            return request.session().get();
        }
        JsonObject body = request.body();
        for (String field : SESSION_FIELDS) {
            if (body.get(field) instanceof JsonString s && !s.getString().isBlank()) {
                return s.getString();
            }
        }
        return null;
    }

    /**
     * Orders the chain for trying, model group by model group (the requested model, then each
     * fallback): within a group, usable targets first in chain order (a connection that recently
     * said it cannot serve the model goes last), then parked and ejected ones by when they recover.
     * A parked target of an earlier group thus comes before any downgrade to a later one.
     */
    static List<Candidate> order(List<Candidate> chain, HealthRegistry health) {
        if (inOrderAndAllUsable(chain, health)) {
            return chain; // nearly every request: no sort to run
        }
        record Ranked(Candidate candidate, Availability availability) {
        }
        return chain.stream()
                .map(c -> new Ranked(c, health.of(c.target().connection()).availability(c.target().model())))
                .sorted(Comparator.<Ranked>comparingInt(r -> r.candidate().group())
                        .thenComparing(r -> !r.availability().usableNow())
                        .thenComparing(r -> r.availability().until() == null ? Instant.MIN : r.availability().until())
                        .thenComparing(r -> r.availability().deprioritised())
                        .thenComparingInt(r -> r.candidate().index()))
                .map(Ranked::candidate)
                .toList();
    }

    /**
     * Whether the chain is in group and index order and every target is {@link #fresh}: then it is its own order (a
     * usable target has no {@code until} to sort by).
     */
    private static boolean inOrderAndAllUsable(List<Candidate> chain, HealthRegistry health) {
        Candidate previous = null;
        for (Candidate c : chain) {
            if (previous != null && (c.group() < previous.group()
                    || c.group() == previous.group() && c.index() < previous.index()) || !fresh(c, health)) {
                return false;
            }
            previous = c;
        }
        return true;
    }
}
