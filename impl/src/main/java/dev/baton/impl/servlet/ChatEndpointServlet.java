package dev.baton.impl.servlet;

import dev.baton.ChatRequest;
import dev.baton.EmbeddingRequest;
import dev.baton.impl.engine.Api;
import dev.baton.exception.RequestRejectedException;
import dev.baton.impl.concurrent.Futures;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.ConnectionConfig;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The OpenAI-compatible endpoint: {@code POST /chat/completions} and {@code POST /responses} (JSON and SSE),
 * {@code POST /embeddings}, {@code GET /models} and
 * {@code GET /requests/{id}}. Request ids, the gateway key and size limits are {@link GatewayFilter}'s; what happens
 * between the call and the engine is the {@link Gateway}'s. This class translates HTTP to a {@link GatewayCall} and
 * writes the {@link Reply}.
 *
 * <p>Asynchronous end to end: the body is read with a {@code ReadListener}, the request thread returns at once, and
 * the answer is written through a {@code WriteListener} when it comes. Thread-safe.
 */
public class ChatEndpointServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    static final String REQUEST_ID = "dev.baton.request-id";
    /** The SDKs' whole-request timeout in seconds; it caps our deadline. */
    private static final String STAINLESS_TIMEOUT = "x-stainless-timeout";
    private static final String STAINLESS_RETRY_COUNT = "x-stainless-retry-count";
    /** The caller's session key for sticky routes ({@code ChatRequest.session()}). */
    static final String SESSION = "x-baton-session";
    static final int MAX_SESSION_CHARS = 255;

    /** Built with the rest of Baton by its composition root; see {@link Endpoint}. */
    @Inject
    transient Endpoint endpoint;

    @Override
    public void init() throws ServletException {
        EndpointInitializer.requireInjected(endpoint, getServletName());
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String refusalId = GatewayFilter.requestId(req);
        Api api = api(req.getPathInfo());
        if (api == null) {
            Responses.error(resp, Rejections.notFound("No such endpoint: POST " + req.getRequestURI()), refusalId);
            return;
        }
        String idempotencyKey = req.getHeader(Idempotency.HEADER);
        int max = Idempotency.MAX_KEY_CHARS;
        if (idempotencyKey != null && (idempotencyKey.isBlank() || idempotencyKey.length() > max)) {
            Responses.error(resp, Rejections.badHeader(Idempotency.HEADER, "The Idempotency-Key header must have 1 to "
                    + max + " characters."), refusalId);
            return;
        }
        String session = req.getHeader(SESSION);
        if (session != null && session.length() > MAX_SESSION_CHARS) {
            Responses.error(resp, Rejections.badHeader(SESSION, "The " + SESSION + " header must have at most "
                    + MAX_SESSION_CHARS + " characters."), refusalId);
            return;
        }
        // Everything the call needs from the request is read here, on the container's thread: once startAsync() has
        // returned and the body arrives on another thread, Open Liberty may already have reset the request's
        // dispatch context, and reading its attributes then fails.
        Caller caller = new Caller(req.getHeader(SESSION), req.getHeader(STAINLESS_TIMEOUT),
                callerRetried(req.getHeader(STAINLESS_RETRY_COUNT)), GatewayFilter.caller(req),
                GatewayFilter.namedKey(req), idempotencyKey, refusalId);
        Duration longest = endpoint.longestRequest();
        AsyncContext async = req.startAsync();
        AsyncOutput output = new AsyncOutput(async, longest, endpoint.engine().scheduler(),
                () -> Responses.timedOut(longest, refusalId), endpoint.openResponses());
        Exchange exchange = new Exchange((HttpServletResponse) async.getResponse(), output, refusalId);
        BodyReader.read(req.getInputStream(), req.getContentLengthLong(), endpoint.settings().maxBodyBytes(),
                BodyReader.MAX_READ_TIME, endpoint.engine().scheduler(), body -> {
                    try {
                        exchange.write(endpoint.gateway().handle(caller.call(body, api)));
                    } catch (Throwable e) {
                        // The boundary: whatever broke (a parser's StackOverflowError, a bug), the client gets an
                        // answer.
                        exchange.refuse(e);
                    }
                }, error -> exchange.refuse(error instanceof RequestRejectedException ? error
                        : RequestRejectedException.invalidRequest("The request body could not be read.", null)));
    }

    /** What the request's headers and the gateway filter said of the caller, read before the body arrives. */
    private record Caller(String session, String timeout, boolean retried, String name, NamedKey key,
                          String idempotencyKey, String refusalId) {

        /** The body as a call: the request with the caller's hints applied, and who is calling. */
        GatewayCall call(byte[] body, Api api) {
            if (!(StrictJson.read(body) instanceof JsonObject json)) {
                throw RequestRejectedException.invalidRequest("The request body is not a JSON object.", null);
            }
            if (api == Api.EMBEDDINGS) {
                EmbeddingRequest.fromJson(json); // refuses fallbacks
            }
            return new GatewayCall(withHints(ChatRequest.fromJson(json)), api, retried, name, key, idempotencyKey,
                    body, refusalId);
        }

        /** The session, and the caller's deadline from the official SDKs' header; a bad timeout is ignored. */
        private ChatRequest withHints(ChatRequest request) {
            request = request.withSession(session);
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
    }

    /** The API a POST path below the mount point speaks, or {@code null} when it is no endpoint of ours. */
    static Api api(String path) {
        return path == null ? null : switch (path) {
            case "/chat/completions" -> Api.CHAT;
            case "/responses" -> Api.RESPONSES;
            case "/embeddings" -> Api.EMBEDDINGS;
            default -> null;
        };
    }

    /**
     * Whether the caller says this is its own retry: the official SDKs' {@code X-Stainless-Retry-Count} above 0. They
     * send it on every request ("0" on the first), so it is read without a regular expression.
     */
    static boolean callerRetried(String retries) {
        return retries != null && !retries.isEmpty() && retries.length() <= 3
                && retries.chars().allMatch(c -> c >= '0' && c <= '9') && Integer.parseInt(retries) > 0;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String path = req.getPathInfo() == null ? "" : req.getPathInfo();
        if (path.equals("/models")) {
            Responses.json(resp, 200, models(GatewayFilter.namedKey(req)));
        } else if (path.startsWith("/requests/") && path.length() > "/requests/".length()) {
            String id = path.substring("/requests/".length());
            // Only the caller's own records (all of them for the admin key); see RecordAccess.
            var record = RecordAccess.read(endpoint.engine().findRecord(id), GatewayFilter.caller(req),
                    GatewayFilter.namedKey(req));
            if (record.isPresent()) {
                Responses.json(resp, 200, record.get());
            } else {
                Responses.error(resp, RecordAccess.notFound(id), GatewayFilter.requestId(req));
            }
        } else {
            Responses.error(resp, Rejections.notFound("No such endpoint: GET " + req.getRequestURI()),
                    GatewayFilter.requestId(req));
        }
    }

    /** What callers can name in {@code model}: every route and every model a connection serves. */
    private JsonObject models(NamedKey key) {
        BatonConfig config = endpoint.config();
        Set<String> allowed = endpoint.settings().allowedModels();
        Set<String> ids = new LinkedHashSet<>(config.routes().keySet());
        for (ConnectionConfig c : config.connections()) {
            ids.addAll(c.modelIds().keySet());
        }
        JsonArrayBuilder data = Json.array();
        for (String id : ids) {
            if (!allowed.isEmpty() && !allowed.contains(id) || key != null && !key.allows(id)) {
                continue;
            }
            data.add(Json.object().add("id", id).add("object", "model").add("created", 0)
                    .add("owned_by", config.routes().containsKey(id) ? "baton-route"
                            : id.indexOf('/') > 0 ? id.substring(0, id.indexOf('/')) : "baton"));
        }
        return Json.object().add("object", "list").add("data", data).build();
    }

    /** One request's response and output: writes whichever {@link Reply} the gateway gave. */
    private record Exchange(HttpServletResponse response, AsyncOutput output, String refusalId) {

        void write(Reply reply) {
            if (reply instanceof Reply.Streamed streamed) {
                new SseRelay(response, output, refusalId, streamed.api() == Api.RESPONSES).subscribeTo(streamed.chunks());
            } else if (reply instanceof Reply.Completed completed) {
                output.onGone(() -> completed.response().cancel(true));
                completed.response().whenComplete((ok, error) -> answer(error == null ? Responses.success(ok)
                        : Responses.failure(Futures.unwrap(error), refusalId)));
            } else {
                ((Reply.Answered) reply).answer().whenComplete((answer, error) ->
                        answer(error == null ? answer : Responses.failure(Futures.unwrap(error), refusalId)));
            }
        }

        void refuse(Throwable error) {
            answer(Responses.failure(error, refusalId));
        }

        /** A whole answer starts the output only when it is at hand (see {@link AsyncOutput#answer}). */
        private void answer(Answer answer) {
            answer.applyTo(response);
            output.answer(answer.body());
        }
    }
}
