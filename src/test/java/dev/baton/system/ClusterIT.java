package dev.baton.system;

import dev.baton.testkit.Behavior;
import jakarta.json.JsonObject;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two Open Liberty servers sharing one Redis through the sample's endpoint: Arquillian's server "arq" and a second
 * server "arq2" this test creates in the same Liberty installation (the same features and JVM options, another
 * port) with the same archive. A 429 answered to one server keeps the other off that account; an Idempotency-Key
 * repeated through the other server gets the first server's answer with one upstream call. Liberty only: on
 * WildFly it is skipped (a second WildFly would need a second installation).
 */
class ClusterIT extends ClientSideIT {

    private static final String NAME = "baton-it-cluster.war";
    private static final String SECOND = "arq2";
    private static Path wlp;
    private static Gateway second;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sample(NAME)
                .addClasses(ClusterConfig.class, DeploymentConfig.class)
                .addAsServiceProvider(ConfigSource.class, ClusterConfig.class);
    }

    private static boolean liberty() {
        return "liberty".equals(System.getProperty("arquillian.launch"));
    }

    /** Creates and starts the second server with the same archive, unless it runs already (one per class). */
    @BeforeEach
    void startSecondServer() throws Exception {
        assumeTrue(liberty(), "two servers of one installation: Open Liberty only");
        if (second != null) {
            return;
        }
        redis("EVAL", "for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end", "0",
                ClusterConfig.PREFIX + "*");
        wlp = Path.of(System.getProperty("wlp.home"));
        Path first = wlp.resolve("usr/servers/arq");
        Path dir = wlp.resolve("usr/servers/" + SECOND);
        if (Files.exists(dir)) {
            server("stop");
            try (Stream<Path> old = Files.walk(dir)) {
                old.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
            }
        }
        Files.createDirectories(dir.resolve("apps"));
        Path war = dir.resolve("apps").resolve(NAME);
        deployment().as(ZipExporter.class).exportTo(war.toFile(), true);
        String contextRoot = base.getPath().replaceAll("/+$", "");
        String serverXml = Files.readString(first.resolve("server.xml")).replace("</server>",
                "    <webApplication location=\"" + war + "\" contextRoot=\"" + contextRoot + "\">\n"
                        + "        <classloader apiTypeVisibility=\"+third-party\"/>\n"
                        + "    </webApplication>\n</server>");
        Files.writeString(dir.resolve("server.xml"), serverXml);
        Files.copy(first.resolve("jvm.options"), dir.resolve("jvm.options"));
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Files.writeString(dir.resolve("bootstrap.properties"), "http.port=" + port + "\n");
        server("start");
        second = new Gateway(URI.create("http://127.0.0.1:" + port + contextRoot + "/").toURL());
        long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (true) {
            try {
                if (second.get("v1/models").statusCode() == 200) {
                    break;
                }
            } catch (UncheckedIOException notYet) {
                // the application is not deployed yet
            }
            assertTrue(System.nanoTime() < end, "the second server served its application within 120 s");
            Thread.sleep(500);
        }
        // Both nodes connected to Redis before the tests count on it.
        for (Gateway node : List.of(gateway, second)) {
            awaitJson(node, "v1/cluster", j -> j.getBoolean("connected"), Duration.ofSeconds(10));
        }
    }

    @AfterAll
    static void stopSecondServer() throws Exception {
        if (second != null) {
            second = null;
            server("stop");
        }
    }

    private static void server(String action) throws Exception {
        Process p = new ProcessBuilder(wlp.resolve("bin/server").toString(), action, SECOND)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor();
        if (action.equals("start")) {
            assertEquals(0, p.exitValue(), out);
        }
    }

    private static void redis(String... command) throws Exception {
        String[] line = Stream.concat(Stream.of("redis-cli", "-h", "127.0.0.1", "-p", "6379"), Stream.of(command))
                .toArray(String[]::new);
        new ProcessBuilder(line).redirectErrorStream(true).start().waitFor();
    }

    private static HttpResponse<String> operatorGet(Gateway node, String path) {
        return node.send(HttpRequest.newBuilder(node.uri(path)).timeout(Gateway.TIMEOUT)
                .header("Authorization", "Bearer " + Gateway.ADMIN_KEY).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> chat(Gateway node, String idempotencyKey) {
        HttpRequest request = node.chatRequest(Gateway.chatBody(Gateway.ROUTE, false), "Bearer " + Gateway.KEY);
        if (idempotencyKey != null) {
            request = HttpRequest.newBuilder(request, (name, value) -> true).header("Idempotency-Key", idempotencyKey)
                    .build();
        }
        return node.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** Polls an operator endpoint until {@code done}; returns how long it took in ms. */
    private static long awaitJson(Gateway node, String path, java.util.function.Predicate<JsonObject> done,
                                  Duration limit) throws Exception {
        long start = System.nanoTime();
        while (true) {
            HttpResponse<String> r = operatorGet(node, path);
            assertEquals(200, r.statusCode(), r::body);
            if (done.test(Gateway.json(r.body()))) {
                return Duration.ofNanos(System.nanoTime() - start).toMillis();
            }
            assertTrue(System.nanoTime() - start < limit.toNanos(),  path + " on " + node.uri("") + " within " + limit + ": "
                    + r.body());
            Thread.sleep(10);
        }
    }

    private static String connectionOf(HttpResponse<String> r) {
        return r.headers().firstValue("x-baton-connection").orElse(null);
    }

    @Test
    void aRateLimitAnsweredToOneServerKeepsTheOtherOffThatAccount() throws Exception {
        Gateway first = gateway;
        simulator.account("primary").enqueue(Behavior.rateLimited(Duration.ofSeconds(30)));

        HttpResponse<String> refused = chat(first, null);
        assertEquals(200, refused.statusCode(), refused::body);
        assertEquals("standby", connectionOf(refused), "the first server fails over after the 429");
        long tookMs = awaitJson(second, "v1/connections/primary", j -> "parked".equals(j.getString("state")),
                Duration.ofSeconds(2));
        System.out.println("the second server had primary parked " + tookMs + " ms after the first answered");

        for (int i = 0; i < 5; i++) {
            HttpResponse<String> r = chat(second, null);
            assertEquals(200, r.statusCode(), r::body);
            assertEquals("standby", connectionOf(r), "the second server keeps off primary during its Retry-After");
        }
        assertEquals(1, simulator.account("primary").requestCount(), "primary was asked once, by the first server");

        JsonObject view = Gateway.json(operatorGet(second, "v1/cluster").body());
        JsonObject learned = view.getJsonArray("changes").getValuesAs(JsonObject.class).stream()
                .filter(c -> c.getString("connection").equals("primary") && !c.isNull("learned_at"))
                .findFirst().orElseThrow(() -> new AssertionError("the second server shows what it learned: " + view));
        assertEquals("parked", learned.getString("event"));
        assertTrue(!learned.getString("node").equals(view.getString("node")), "learned from the other node");

        // Put primary back on both servers for the next test: a restore on one reaches the other.
        first.restoreConnections();
        awaitJson(second, "v1/connections/primary", j -> "healthy".equals(j.getString("state")),
                Duration.ofSeconds(2));
    }

    @Test
    void anIdempotencyKeyRepeatedThroughTheOtherServerGetsTheFirstAnswer() throws Exception {
        String key = "cluster-it-" + UUID.randomUUID();
        HttpResponse<String> first = chat(gateway, key);
        HttpResponse<String> repeat = chat(second, key);

        assertEquals(200, first.statusCode(), first::body);
        assertEquals(200, repeat.statusCode(), repeat::body);
        assertEquals("true", repeat.headers().firstValue("x-baton-idempotent-replay").orElse(null));
        assertEquals(first.body(), repeat.body(), "the first server's answer, byte for byte");
        assertEquals(first.headers().firstValue("x-request-id"), repeat.headers().firstValue("x-request-id"));
        assertEquals(1, simulator.account("primary").requestCount() + simulator.account("standby").requestCount(),
                "one upstream call for both");
    }
}
