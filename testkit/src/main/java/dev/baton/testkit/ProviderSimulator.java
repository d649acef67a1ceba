package dev.baton.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fault-injecting LLM provider on 127.0.0.1 that speaks OpenAI chat completions, Responses and embeddings (also on
 * Azure OpenAI's paths), Anthropic Messages, Amazon Bedrock's Converse (with SigV4 checked per account), and Vertex
 * AI's and the Gemini API's versions of OpenAI's and Anthropic's wires ({@link GoogleCloud}), for rehearsing failover
 * in tests and game days.
 *
 * <p>Thread-safe. Every thread it starts is a daemon; {@link #close()} stops them and closes every open socket.
 */
public final class ProviderSimulator implements AutoCloseable {

    /** The dialects routed below {@code /{account}/v1}; Bedrock's paths are routed on their own. */
    private static final List<WireFormat> WIRE_FORMATS = List.of(OpenAiWire.INSTANCE, AnthropicWire.INSTANCE,
            OpenAiResponsesWire.INSTANCE, OpenAiEmbeddingsWire.INSTANCE);
    /** The dialects on Azure OpenAI's deployment paths, {@code /{account}/openai/deployments/{deployment}/…}. */
    private static final List<WireFormat> AZURE_DEPLOYMENT_FORMATS = List.of(OpenAiWire.INSTANCE,
            OpenAiEmbeddingsWire.INSTANCE);
    /** The dialects on Azure OpenAI's v1 paths, {@code /{account}/openai/v1/…}; the body's model is the deployment. */
    private static final List<WireFormat> AZURE_V1_FORMATS = List.of(OpenAiResponsesWire.INSTANCE,
            OpenAiEmbeddingsWire.INSTANCE);
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final ServerSocket server;
    private final ExecutorService threads;
    private final Map<String, Account> accounts = new ConcurrentHashMap<>();
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicLong completions = new AtomicLong();
    private final AtomicInteger acceptedConnections = new AtomicInteger();
    private final ControlApi control = new ControlApi(this);
    private final GoogleCloud google = new GoogleCloud(this);
    private volatile boolean closed;

    private ProviderSimulator(ServerSocket server) {
        this.server = server;
        String prefix = "baton-sim-" + INSTANCES.incrementAndGet() + "-";
        AtomicInteger counter = new AtomicInteger();
        this.threads = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, prefix + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        threads.execute(this::acceptLoop);
    }

    /** Starts on 127.0.0.1 on an ephemeral port. */
    public static ProviderSimulator start() {
        return start(0);
    }

    /** Starts on 127.0.0.1 on the given port (0 for an ephemeral one). */
    public static ProviderSimulator start(int port) {
        try {
            ServerSocket server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), port), 128);
            return new ProviderSimulator(server);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on 127.0.0.1:" + port, e);
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /** The OpenAI base URL of an account, e.g. {@code http://127.0.0.1:8089/primary/v1}. */
    public String baseUrl(String account) {
        return "http://127.0.0.1:" + port() + "/" + requireAccountName(account) + "/v1";
    }

    /**
     * The Anthropic base URL of an account, e.g. {@code http://127.0.0.1:8089/primary}: the Anthropic SDKs append
     * {@code /v1/messages} themselves.
     */
    public String anthropicBaseUrl(String account) {
        return "http://127.0.0.1:" + port() + "/" + requireAccountName(account);
    }

    /**
     * The Azure OpenAI base URL of an account, e.g. {@code http://127.0.0.1:8089/primary}: requests go to
     * {@code {base}/openai/deployments/{deployment}/chat/completions?api-version=…} and are answered in the OpenAI
     * wire with the deployment name as the model.
     */
    public String azureBaseUrl(String account) {
        return anthropicBaseUrl(account);
    }

    /**
     * The Amazon Bedrock runtime base URL of an account, e.g. {@code http://127.0.0.1:8089/primary}: requests go to
     * {@code {base}/model/{modelId}/converse} and {@code …/converse-stream}. See {@link Account#awsCredentials}.
     */
    public String bedrockBaseUrl(String account) {
        return anthropicBaseUrl(account);
    }

    /**
     * The Vertex AI base URL of an account, e.g.
     * {@code http://127.0.0.1:8089/primary/v1/projects/sim-project/locations/us-east5}: Claude at
     * {@code {base}/publishers/anthropic/models/{model}:rawPredict}, other models at
     * {@code {base}/endpoints/openapi/chat/completions}, both with an access token from {@link #google()}.
     */
    public String vertexBaseUrl(String account) {
        return "http://127.0.0.1:" + port() + "/" + requireAccountName(account)
                + "/v1/projects/sim-project/locations/us-east5";
    }

    /** The Gemini API base URL of an account, e.g. {@code http://127.0.0.1:8089/primary/v1beta/openai}. */
    public String geminiBaseUrl(String account) {
        return "http://127.0.0.1:" + port() + "/" + requireAccountName(account) + "/v1beta/openai";
    }

    /** Google's token endpoint and service-account keys, for the Vertex AI paths. */
    public GoogleCloud google() {
        return google;
    }

    /** The account of that name, created on first use; the same instance every time. */
    public Account account(String name) {
        return accounts.computeIfAbsent(requireAccountName(name), Account::new);
    }

    /** Resets every account: script, default, flap, served models and request log. */
    public void reset() {
        accounts.values().forEach(Account::reset);
        google.reset();
    }

    /** Stops accepting, closes every open connection and stops every simulator thread. Idempotent. */
    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // the listener is unusable either way
        }
        connections.forEach(Connection::abort);
        threads.shutdownNow();
        try {
            threads.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "ProviderSimulator[127.0.0.1:" + port() + (closed ? ", closed]" : "]");
    }

    static boolean isAccountName(String name) {
        return name != null && name.matches("[A-Za-z0-9._~-]+") && !name.startsWith("__") && !name.equals(".")
                && !name.equals("..");
    }

    boolean isClosed() {
        return closed;
    }

    /** How many TCP connections were accepted so far; lets tests observe keep-alive. */
    int acceptedConnections() {
        return acceptedConnections.get();
    }

    void forget(Connection connection) {
        connections.remove(connection);
    }

    /** Answers one request; returns whether the connection may carry another. */
    boolean serve(HttpInput.Request request, Connection connection) throws IOException {
        String method = request.method();
        String path = request.path();
        if (path.startsWith(ControlApi.PREFIX)) {
            ControlApi.Answer answer = control.handle(method, path, request.body());
            connection.send(answer.status(), Map.of("content-type", "application/json"),
                    answer.body().getBytes(StandardCharsets.UTF_8));
            return true;
        }
        if (google.handles(path)) {
            return google.serve(request, connection);
        }
        String[] parts = path.split("/", 4); // "", account, "v1", route
        if (parts.length == 4 && isAccountName(parts[1]) && parts[2].equals("v1")) {
            Account account = account(parts[1]);
            String route = "/" + parts[3];
            RecordedRequest recorded = RecordedRequest.arrived(account.name(), method, path, request.query(),
                    request.headers(), request.body());
            connection.answering(recorded);
            for (WireFormat wire : WIRE_FORMATS) {
                if (method.equals("POST") && route.equals(wire.route())) {
                    return complete(wire, account, recorded, connection, null);
                }
            }
            account.admit(recorded, null);
            if (method.equals("GET") && route.equals("/models")) {
                Set<String> models = account.models();
                OpenAiWire wire = OpenAiWire.INSTANCE;
                sendJson(connection, 200, wire.headers(wire.requestId(), null, 0),
                        OpenAiWire.models(models == null ? OpenAiWire.DEFAULT_MODELS : models));
                return true;
            }
        }
        // Azure OpenAI: /{account}/openai/deployments/{deployment}/chat/completions?api-version=... (or /embeddings)
        String[] azure = path.split("/", 6); // "", account, "openai", "deployments", deployment, route
        if (azure.length == 6 && isAccountName(azure[1]) && azure[2].equals("openai") && azure[3].equals("deployments")
                && isAccountName(azure[4]) && method.equals("POST")) {
            for (WireFormat wire : AZURE_DEPLOYMENT_FORMATS) {
                if (("/" + azure[5]).equals(wire.route())) {
                    return complete(wire, account(azure[1]), arrived(request, azure[1], connection), connection,
                            azure[4]);
                }
            }
        }
        // Azure OpenAI's v1 API: /{account}/openai/v1/responses (or /embeddings), the body's model the deployment
        String[] azureV1 = path.split("/", 5); // "", account, "openai", "v1", route
        if (azureV1.length == 5 && isAccountName(azureV1[1]) && azureV1[2].equals("openai") && azureV1[3].equals("v1")
                && method.equals("POST")) {
            for (WireFormat wire : AZURE_V1_FORMATS) {
                if (("/" + azureV1[4]).equals(wire.route())) {
                    return complete(wire, account(azureV1[1]), arrived(request, azureV1[1], connection), connection,
                            null);
                }
            }
        }
        // Amazon Bedrock: /{account}/model/{modelId}/converse or /converse-stream, the model id URL-encoded
        String[] bedrock = path.split("/", 5); // "", account, "model", modelId, action
        if (bedrock.length == 5 && isAccountName(bedrock[1]) && bedrock[2].equals("model") && method.equals("POST")
                && (bedrock[4].equals("converse") || bedrock[4].equals("converse-stream"))) {
            return converse(request, connection, bedrock[1], URLDecoder.decode(bedrock[3], StandardCharsets.UTF_8),
                    bedrock[4].equals("converse-stream"));
        }
        sendJson(connection, 404, Map.of(), OpenAiWire.INSTANCE.errorBody(OpenAiWire.invalidUrl(method, path), null, null));
        return true;
    }

    /** A Bedrock Converse request: its signature checked when the account has AWS credentials, then played. */
    private boolean converse(HttpInput.Request request, Connection connection, String accountName, String modelId,
            boolean stream) throws IOException {
        Account account = account(accountName);
        RecordedRequest recorded = RecordedRequest.arrived(account.name(), request.method(), request.path(),
                request.query(), request.headers(), request.body());
        connection.answering(recorded);
        String[] credentials = account.awsCredentials();
        Behavior.ApiError refused = credentials == null ? null : SigV4Check.check(request, credentials[0], credentials[1]);
        if (refused != null) {
            account.admit(recorded, null);
            Playback.refuse(BedrockWire.INSTANCE, refused, connection);
            return true;
        }
        var body = JsonSupport.parseObject(recorded.body());
        if (body != null) {
            body = JsonSupport.JSON.createObjectBuilder(body).add("model", modelId).add("stream", stream).build();
        }
        return play(BedrockWire.INSTANCE, account, recorded, connection, body);
    }

    /** Records a request to the account and ties it to the connection, which reports the client hanging up. */
    private RecordedRequest arrived(HttpInput.Request request, String accountName, Connection connection) {
        RecordedRequest recorded = RecordedRequest.arrived(account(accountName).name(), request.method(),
                request.path(), request.query(), request.headers(), request.body());
        connection.answering(recorded);
        return recorded;
    }

    /** {@code deployment} non-null: an Azure OpenAI request, answered as that deployment's model whatever the body says. */
    private boolean complete(WireFormat wire, Account account, RecordedRequest recorded, Connection connection,
            String deployment) throws IOException {
        var body = JsonSupport.parseObject(recorded.body());
        if (body != null && deployment != null) {
            body = JsonSupport.JSON.createObjectBuilder(body).add("model", deployment).build();
        }
        return play(wire, account, recorded, connection, body);
    }

    /** Plays the account's next behaviour for {@code body} (null: not JSON), unless the wire refuses it first. */
    private boolean play(WireFormat wire, Account account, RecordedRequest recorded, Connection connection,
            jakarta.json.JsonObject body) throws IOException {
        Behavior.ApiError rejection = wire.reject(body);
        if (rejection != null) {
            account.admit(recorded, null);
            Playback.refuse(wire, rejection, connection);
            return true;
        }
        WireFormat.Call call = wire.call(body, account.name(), completions.incrementAndGet());
        Behavior behavior = account.admit(recorded, call.model());
        return Playback.perform(behavior, wire, call, connection);
    }

    private static void sendJson(Connection connection, int status, Map<String, String> headers, String body)
            throws IOException {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("content-type", "application/json");
        all.putAll(headers);
        connection.send(status, all, body.getBytes(StandardCharsets.UTF_8));
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket socket = server.accept();
                socket.setTcpNoDelay(true);
                Connection connection = new Connection(this, socket);
                connections.add(connection);
                acceptedConnections.incrementAndGet();
                if (closed) {
                    connection.abort();
                    return;
                }
                threads.execute(connection);
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("baton-testkit: accept failed: " + e);
                }
            } catch (RejectedExecutionException e) {
                return; // closing raced with an accept
            }
        }
    }

    private static String requireAccountName(String name) {
        if (!isAccountName(name)) {
            throw new IllegalArgumentException("account names are one URL path segment of letters, digits and"
                    + " . _ ~ - (not starting with __), was: " + name);
        }
        return name;
    }
}
