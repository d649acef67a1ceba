package dev.baton.impl.servlet;

import dev.baton.ChatChunk;
import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.Cost;
import dev.baton.exception.FailoverException;
import dev.baton.exception.RequestRejectedException;
import dev.baton.impl.cdi.BatonChatService;
import dev.baton.impl.cdi.BatonExtension;
import dev.baton.impl.concurrent.Scheduler;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.ConnectionConfig;
import dev.baton.impl.config.PolicyOverride;
import dev.baton.impl.engine.Call;
import dev.baton.impl.engine.FailoverEngine;
import dev.baton.wire.OpenAiShape;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.eclipse.microprofile.config.ConfigProvider;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Flow;
import java.util.stream.Collectors;

/**
 * The OpenAI-compatible endpoint: {@code POST /chat/completions} (JSON and SSE),
 * {@code GET /models} and {@code GET /requests/{id}}. Authentication, request ids for refusals and
 * size limits live in {@link GatewayFilter}; this class is about chat.
 *
 * <p>A non-streaming request with an {@code Idempotency-Key} goes through {@link IdempotencyCache}:
 * a repeat gets the first answer instead of a second provider call. A stream cannot be replayed
 * (its caller consumed it as it was produced, and keeping every chunk would hold a whole answer
 * per key), so a streaming request with the header is refused.
 *
 * <p>Asynchronous end to end: the body is read with a {@code ReadListener}, the request thread
 * returns at once, and the answer is written through a {@code WriteListener} when the engine
 * produces it. Thread-safe.
 */
public class ChatEndpointServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    static final String REQUEST_ID = "dev.baton.request-id";
    /** The SDKs' whole-request timeout in seconds; it caps our deadline. */
    private static final String STAINLESS_TIMEOUT = "x-stainless-timeout";
    private static final String STAINLESS_RETRY_COUNT = "x-stainless-retry-count";
    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    /** When an exhausted key's budget is whole again, on a 402 {@code budget_exceeded}. */
    static final String BUDGET_RESET = "x-baton-budget-reset";
    static final int MAX_IDEMPOTENCY_KEY_CHARS = 255;
    /** The caller's session key for sticky routes ({@code ChatRequest.session()}). */
    static final String SESSION = "x-baton-session";
    static final int MAX_SESSION_CHARS = 255;
    private static final Duration ASYNC_TIMEOUT_MARGIN = Duration.ofSeconds(30);

    private transient FailoverEngine engine;
    /** The engine's scheduler: the body read limit runs on it. */
    private transient Scheduler scheduler;
    private transient BatonConfig config;
    private int maxBodyBytes;
    private transient Set<String> allowedModels;
    /** What each named key with a budget has spent; see {@link #metered}. */
    private transient KeyBudgets budgets;
    private transient IdempotencyCache idempotency;
    /** The cluster's idempotency keys, or {@code null} on a node alone ({@code baton.cluster.store=memory}). */
    private transient SharedIdempotency shared;
    /** Ends a request nothing else ended; the engine's deadlines end every other one well before it. */
    private transient Duration longestRequest;

    @Override
    public void init() {
        BatonChatService chat = CDI.current().select(BatonChatService.class).get();
        engine = chat.engine();
        scheduler = engine.scheduler();
        config = CDI.current().select(BatonExtension.class).get().config();
        maxBodyBytes = Integer.parseInt(getInitParameter("max-body-bytes"));
        allowedModels = Arrays.stream(getInitParameter("allowed-models").split(",")).filter(m -> !m.isBlank())
                .collect(Collectors.toUnmodifiableSet());
        idempotency = new IdempotencyCache(Duration.parse(getInitParameter("idempotency-ttl")),
                Integer.parseInt(getInitParameter("idempotency-max-entries")), Clock.systemUTC());
        longestRequest = lastResort(config);
        EndpointSettings settings = EndpointSettings.load(ConfigProvider.getConfig(getServletContext().getClassLoader()));
        budgets = new KeyBudgets(settings.namedKeys(), Clock.systemUTC());
        BudgetSetup.check(config, settings.namedKeys());
        BudgetSetup.restore(budgets, settings.namedKeys(), chat.recordStore());
        // A claim lasts as long as a non-streaming request can run (a stream never carries a key).
        Duration running = longestRequest.minus(config.maxStreamDuration());
        shared = chat.cluster().map(c -> new SharedIdempotency(c.store(), c.node(),
                Duration.parse(getInitParameter("idempotency-ttl")), running, scheduler)).orElse(null);
    }

    /**
     * The longest a request can legitimately take: the longest deadline (until the commit point),
     * then a stream's longest run after it, plus a margin for the body and the last write.
     */
    static Duration lastResort(BatonConfig config) {
        Duration deadline = config.routes().values().stream().map(r -> r.policy().deadline())
                .reduce(config.defaults().deadline(), (a, b) -> a.compareTo(b) >= 0 ? a : b);
        return deadline.plus(config.maxStreamDuration()).plus(ASYNC_TIMEOUT_MARGIN);
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        if (!"/chat/completions".equals(req.getPathInfo())) {
            Responses.error(resp, RequestRejectedException.notFound("No such endpoint: POST " + req.getRequestURI()),
                    GatewayFilter.requestId(req));
            return;
        }
        String idempotencyKey = req.getHeader(IDEMPOTENCY_KEY);
        if (idempotencyKey != null && (idempotencyKey.isBlank() || idempotencyKey.length() > MAX_IDEMPOTENCY_KEY_CHARS)) {
            Responses.write(resp, Responses.refusal(400, "invalid_request_error", "invalid_request", IDEMPOTENCY_KEY,
                    "The Idempotency-Key header must have 1 to " + MAX_IDEMPOTENCY_KEY_CHARS + " characters.",
                    GatewayFilter.requestId(req)));
            return;
        }
        String session = req.getHeader(SESSION);
        if (session != null && session.length() > MAX_SESSION_CHARS) {
            Responses.write(resp, Responses.refusal(400, "invalid_request_error", "invalid_request", SESSION,
                    "The " + SESSION + " header must have at most " + MAX_SESSION_CHARS + " characters.",
                    GatewayFilter.requestId(req)));
            return;
        }
        String caller = GatewayFilter.caller(req);
        NamedKey key = GatewayFilter.namedKey(req);
        String refusalId = GatewayFilter.requestId(req);
        AsyncContext async = req.startAsync();
        AsyncOutput output = new AsyncOutput(async, longestRequest, scheduler,
                () -> Responses.timedOut(longestRequest, refusalId));
        HttpServletResponse response = (HttpServletResponse) async.getResponse();
        ServletInputStream in = req.getInputStream();
        BodyReader.read(in, req.getContentLengthLong(), maxBodyBytes, BodyReader.MAX_READ_TIME, scheduler, body -> {
            try {
                chat(body, req, caller, key, idempotencyKey, response, output, refusalId);
            } catch (Throwable e) {
                // The boundary: whatever broke (a parser's StackOverflowError, a bug), the client gets an answer.
                refuse(response, output, e, refusalId);
            }
        }, error -> refuse(response, output, error instanceof RequestRejectedException ? error
                : RequestRejectedException.invalidRequest("The request body could not be read.", null), refusalId));
    }

    private void chat(byte[] body, HttpServletRequest req, String caller, NamedKey key, String idempotencyKey,
                      HttpServletResponse response, AsyncOutput output, String refusalId) {
        ChatRequest request;
        boolean callerRetried = callerRetried(req.getHeader(STAINLESS_RETRY_COUNT));
        try {
            if (!(StrictJson.read(body) instanceof JsonObject json)) {
                throw RequestRejectedException.invalidRequest("The request body is not a JSON object.", null);
            }
            request = allowed(withCallerHints(ChatRequest.fromJson(json), req), allowedModels);
            if (key != null) {
                request = allowed(request, key.allowedModels());
            }
        } catch (RequestRejectedException e) {
            refuse(response, output, e, refusalId);
            return;
        }
        // Before any provider is called: a key that has spent its budget is refused until the period ends.
        KeyBudgets.Exhausted exhausted = budgets.check(key);
        if (exhausted != null) {
            refuse(response, output, budgetExceeded(exhausted, refusalId));
            return;
        }
        Metered metered = metered(key);
        String keyName = key == null ? null : key.name();
        if (request.stream() && idempotencyKey != null) {
            refuse(response, output, Responses.refusal(400, "invalid_request_error", "invalid_request",
                    IDEMPOTENCY_KEY, "A streaming request cannot carry an Idempotency-Key: a stream cannot be "
                            + "replayed once consumed. Send it without the header, or set \"stream\": false.",
                    refusalId));
        } else if (request.stream()) {
            boolean hideUsage = metered != null && !asksForUsage(request);
            new SseRelay(response, output, refusalId, metered, hideUsage).subscribeTo(
                    engine.stream(new Call(hideUsage ? withUsage(request) : request, PolicyOverride.NONE, callerRetried,
                            keyName)));
        } else if (idempotencyKey != null) {
            byte[] bodyHash = GatewayKeys.sha256(body);
            completeOnce(request, callerRetried, idempotency.claim(caller, idempotencyKey, bodyHash),
                    new Keyed(caller, idempotencyKey, bodyHash), response, output, refusalId, metered, keyName);
        } else {
            complete(request, callerRetried, response, output, refusalId, metered, keyName);
        }
    }

    /**
     * A request of a key with a budget, to be charged its estimated cost when the answer is known: the period it
     * was admitted in is the one charged.
     */
    private record Metered(KeyBudgets budgets, NamedKey key, Instant admittedAt) {

        void charge(Cost cost) {
            if (cost != null) {
                budgets.charge(key, cost.amount(), admittedAt);
            }
        }

        /** Charges the cost Baton put into a stream's usage chunk. */
        void charge(JsonObject usage) {
            if (usage.get("cost") instanceof JsonNumber amount) {
                budgets.charge(key, amount.bigDecimalValue(), admittedAt);
            }
        }
    }

    private Metered metered(NamedKey key) {
        return key == null || key.budget() == null ? null : new Metered(budgets, key, budgets.now());
    }

    /** 402 with the reset time as a header too, and as {@code retry-after} for clients that read only that. */
    private static Answer budgetExceeded(KeyBudgets.Exhausted exhausted, String refusalId) {
        Answer refusal = Responses.failure(Rejections.budgetExceeded(exhausted), refusalId);
        Map<String, String> headers = new LinkedHashMap<>(refusal.headers());
        headers.put(BUDGET_RESET, exhausted.resetAt().toString());
        long seconds = Math.max(1, Duration.between(Instant.now(), exhausted.resetAt()).toSeconds());
        headers.put("retry-after", Long.toString(seconds));
        return new Answer(refusal.status(), headers, refusal.body());
    }

    /** Whether the caller asked for the usage chunk at the end of its stream. */
    private static boolean asksForUsage(ChatRequest request) {
        return request.body().get("stream_options") instanceof JsonObject options
                && options.get("include_usage") == JsonValue.TRUE;
    }

    /**
     * The request with the usage chunk asked for: a stream's cost is only known from it. The relay charges it and
     * keeps it from the caller, who did not ask for it.
     */
    private static ChatRequest withUsage(ChatRequest request) {
        var options = request.body().get("stream_options") instanceof JsonObject o ? Json.object(o) : Json.object();
        return request.withBody(Json.object(request.body()).add("stream_options", options.add("include_usage", true))
                .build());
    }

    /**
     * Applies a model allowlist, the endpoint's or a named key's: a configured route or model the
     * caller may not use is refused with 403 (an unknown one stays a 404 from the engine); fallbacks
     * it may not use are dropped, never routed around the policy. An empty list allows everything.
     */
    private ChatRequest allowed(ChatRequest request, Set<String> allowed) {
        if (allowed.isEmpty()) {
            return request;
        }
        String model = request.model();
        if (model != null && !allowed.contains(model) && known(model)) {
            throw Rejections.modelNotAllowed(model);
        }
        if (request.fallbacks().isEmpty()) {
            return request;
        }
        List<String> fallbacks = request.fallbacks().stream().filter(f -> allowed.contains(f) || !known(f)).toList();
        return fallbacks.size() == request.fallbacks().size() ? request : request.withFallbacks(fallbacks);
    }

    private boolean known(String model) {
        return config.routes().containsKey(model) || !config.servingModel(model).isEmpty();
    }

    private void complete(ChatRequest request, boolean callerRetried, HttpServletResponse response,
                          AsyncOutput output, String refusalId, Metered metered, String keyName) {
        var answer = engine.complete(new Call(request, PolicyOverride.NONE, callerRetried, keyName));
        output.start(() -> { }, () -> answer.cancel(true));
        answer.whenComplete((ok, error) -> {
            charge(metered, ok);
            answer(response, output, answerOf(ok, error, refusalId));
        });
    }

    private static void charge(Metered metered, ChatResponse answer) {
        if (metered != null && answer != null) {
            metered.charge(answer.cost());
        }
    }

    /**
     * A non-streaming request with an idempotency key. The owner of the key runs it and settles the
     * key; a repeat attaches to the owner's answer. Neither blocks a thread. The owner's request is
     * not cancelled when its caller goes away: its answer is exactly what that caller's retry with
     * the same key will want.
     */
    private void completeOnce(ChatRequest request, boolean callerRetried, IdempotencyCache.Claim claim, Keyed keyed,
                              HttpServletResponse response, AsyncOutput output, String refusalId, Metered metered,
                              String keyName) {
        output.start(() -> { }, () -> { });
        if (claim instanceof IdempotencyCache.Conflict) {
            answer(response, output, keyReused(refusalId));
        } else if (claim instanceof IdempotencyCache.Attached repeat) {
            repeat.answer().whenComplete((stored, error) -> answer(response, output,
                    error == null ? stored : Responses.failure(error, refusalId)));
        } else if (shared == null) {
            run(request, callerRetried, (IdempotencyCache.Owner) claim, null, response, output, refusalId, metered,
                    keyName);
        } else {
            // The owner here; in a cluster, another node may own the key (see SharedIdempotency).
            IdempotencyCache.Owner owner = (IdempotencyCache.Owner) claim;
            shared.claim(keyed.caller(), keyed.key(), keyed.bodyHash()).whenComplete((outcome, error) -> {
                if (outcome instanceof SharedIdempotency.Replay replay) {
                    owner.settle(replay.answer());
                    answer(response, output, replay.answer().replayed());
                } else if (outcome instanceof SharedIdempotency.Conflict) {
                    Answer refusal = keyReused(refusalId);
                    owner.settle(refusal);
                    answer(response, output, refusal);
                } else {
                    boolean claimed = outcome instanceof SharedIdempotency.Run run && run.claimed();
                    run(request, callerRetried, owner, claimed ? keyed : null, response, output, refusalId, metered,
                            keyName);
                }
            });
        }
    }

    /** Runs an idempotent request this node owns; {@code claimed} is its key when the cluster holds it for this node. */
    private void run(ChatRequest request, boolean callerRetried, IdempotencyCache.Owner owner, Keyed claimed,
                     HttpServletResponse response, AsyncOutput output, String refusalId, Metered metered,
                     String keyName) {
        CompletableFuture<ChatResponse> answer;
        try {
            answer = engine.complete(new Call(request, PolicyOverride.NONE, callerRetried, keyName));
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((ok, error) -> {
            charge(metered, ok); // a repeat is answered from this one and charged nothing
            Answer result = answerOf(ok, error, refusalId);
            owner.settle(result);
            if (claimed != null) {
                shared.settle(claimed.caller(), claimed.key(), claimed.bodyHash(), result);
            }
            answer(response, output, result);
        });
    }

    private static Answer keyReused(String refusalId) {
        return Responses.refusal(422, "invalid_request_error", "idempotency_key_reused", IDEMPOTENCY_KEY,
                "This Idempotency-Key was already used with a different request body; send a new key for a new "
                        + "request.", refusalId);
    }

    /** Who sent an idempotency key, the key, and the SHA-256 of the body it came with. */
    private record Keyed(String caller, String key, byte[] bodyHash) {
    }

    private static Answer answerOf(ChatResponse ok, Throwable error, String refusalId) {
        if (error == null) {
            return Responses.success(ok);
        }
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return Responses.failure(cause, refusalId);
    }

    private static void answer(HttpServletResponse response, AsyncOutput output, Answer answer) {
        answer.applyTo(response);
        output.finish(answer.body());
    }

    private static void refuse(HttpServletResponse response, AsyncOutput output, Throwable error, String refusalId) {
        refuse(response, output, Responses.failure(error, refusalId));
    }

    private static void refuse(HttpServletResponse response, AsyncOutput output, Answer refusal) {
        output.start(() -> { }, () -> { });
        answer(response, output, refusal);
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String path = req.getPathInfo() == null ? "" : req.getPathInfo();
        if (path.equals("/models")) {
            Responses.json(resp, 200, models(GatewayFilter.namedKey(req)));
        } else if (path.startsWith("/requests/") && path.length() > "/requests/".length()) {
            String id = path.substring("/requests/".length());
            var record = engine.findRecord(id);
            if (record.isPresent()) {
                Responses.json(resp, 200, Json.record(record.get()));
            } else {
                Responses.error(resp, RequestRejectedException.notFound("No record for request `" + id
                        + "` (unknown, or evicted from the store)."), GatewayFilter.requestId(req));
            }
        } else {
            Responses.error(resp, RequestRejectedException.notFound("No such endpoint: GET " + req.getRequestURI()),
                    GatewayFilter.requestId(req));
        }
    }

    /** What callers can name in {@code model}: every route and every model a connection serves. */
    private JsonObject models(NamedKey key) {
        Set<String> ids = new LinkedHashSet<>(config.routes().keySet());
        for (ConnectionConfig c : config.connections()) {
            ids.addAll(c.models());
        }
        JsonArrayBuilder data = Json.array();
        for (String id : ids) {
            if (!allowedModels.isEmpty() && !allowedModels.contains(id) || key != null && !key.allows(id)) {
                continue;
            }
            data.add(Json.object().add("id", id).add("object", "model").add("created", 0)
                    .add("owned_by", config.routes().containsKey(id) ? "baton-route" : "baton"));
        }
        return Json.object().add("object", "list").add("data", data).build();
    }

    /** The caller's deadline, from the official SDKs' header; a bad value is ignored. */
    private static ChatRequest withCallerHints(ChatRequest request, HttpServletRequest req) {
        request = request.withSession(req.getHeader(SESSION));
        String timeout = req.getHeader(STAINLESS_TIMEOUT);
        if (timeout != null && timeout.length() <= 16) {
            try {
                double seconds = Double.parseDouble(timeout.strip());
                if (seconds > 0 && seconds < 86_400) {
                    request = request.withTimeout(Duration.ofMillis((long) (seconds * 1000)));
                }
            } catch (NumberFormatException ignored) {
                // not a number: the route's deadline applies
            }
        }
        return request;
    }

    /**
     * Whether the caller says this is its own retry: the official SDKs' {@code X-Stainless-Retry-Count} above 0. They
     * send it on every request ("0" on the first), so it is read without a regular expression.
     */
    static boolean callerRetried(String retries) {
        return retries != null && !retries.isEmpty() && retries.length() <= 3
                && retries.chars().allMatch(c -> c >= '0' && c <= '9') && Integer.parseInt(retries) > 0;
    }

    /**
     * Relays a stream to the client as SSE. Nothing is written before the first chunk: that chunk is
     * the commit point, when status 200 and the served-by headers go out. A failure before it is an
     * ordinary JSON error response; after it, an event named {@code error} and no {@code [DONE]}.
     */
    private static final class SseRelay implements Flow.Subscriber<ChatChunk> {

        private static final byte[] DONE = event(null, "[DONE]");

        private final HttpServletResponse response;
        private final AsyncOutput output;
        private final String refusalId;
        /** The key to charge the stream's cost to, or {@code null}. */
        private final Metered metered;
        /** Whether the usage chunk was asked for by Baton, not the caller: it is charged, not sent. */
        private final boolean hideUsage;
        private volatile Flow.Subscription subscription;
        private volatile boolean committed;

        SseRelay(HttpServletResponse response, AsyncOutput output, String refusalId, Metered metered,
                 boolean hideUsage) {
            this.response = response;
            this.output = output;
            this.refusalId = refusalId;
            this.metered = metered;
            this.hideUsage = hideUsage;
        }

        /**
         * Subscribes, then starts the output: each time the client has taken everything written, one more chunk is
         * asked for. Open Liberty hands the output's first callback to another thread, a wake-up that would otherwise
         * come before the provider is called.
         */
        void subscribeTo(Flow.Publisher<ChatChunk> stream) {
            stream.subscribe(this);
            Flow.Subscription s = subscription; // the engine's publishers call onSubscribe within subscribe
            output.start(() -> s.request(1), s::cancel);
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
        }

        @Override
        public void onNext(ChatChunk chunk) {
            if (!committed) {
                committed = true;
                response.setStatus(200);
                response.setContentType("text/event-stream");
                response.setCharacterEncoding("UTF-8");
                response.setHeader("cache-control", "no-cache");
                response.setHeader("x-accel-buffering", "no");
                Responses.servedBy(response, chunk.servedBy(), chunk.requestId());
            }
            JsonObject usage = metered == null ? null : OpenAiShape.usage(chunk.body());
            if (usage != null) {
                metered.charge(usage);
                if (hideUsage && chunk.body().get("choices") instanceof JsonArray choices && choices.isEmpty()) {
                    subscription.request(1); // as if written: the caller takes the next chunk
                    return;
                }
            }
            output.send(event(null, chunk.body().toString()));
        }

        @Override
        public void onError(Throwable error) {
            if (!committed) {
                output.finish(Responses.failure(response, error, refusalId));
            } else {
                FailoverException e = error instanceof FailoverException f ? f : null;
                // The official SDKs raise on the {"error": ...} data; the name is for clients that fail only on
                // a named error event (LangChain4j). Breaking the body instead has no portable servlet way
                // (docs/servlet.md).
                output.finish(event("error", (e != null ? Json.error(e)
                        : Json.error("The stream failed.", "server_error", "stream_interrupted", null)).toString()));
            }
        }

        @Override
        public void onComplete() {
            output.finish(DONE);
        }

        private static byte[] event(String name, String data) {
            return ((name == null ? "" : "event: " + name + "\n") + "data: " + data + "\n\n")
                    .getBytes(StandardCharsets.UTF_8);
        }
    }

}
