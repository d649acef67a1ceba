package dev.baton.impl.http;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.baton.FailureKind;
import dev.baton.impl.engine.EngineFixture;
import dev.baton.spi.ProviderException;
import dev.baton.spi.ProviderFailure;
import dev.baton.spi.ProviderTransport.Request;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileInputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The Netty client over TLS: a provider whose certificate names the host it was called by answers; one whose
 * certificate names another host is refused before any request leaves, as an unreachable connection. The certificate
 * is made for the test by the JDK's {@code keytool}, for {@code localhost} only.
 */
class NettyTlsTest {

    private static final char[] PASSWORD = "changeit".toCharArray();

    @TempDir
    static Path dir;
    private static HttpsServer server;
    private static BatonHttpClient client;

    @BeforeAll
    static void start() throws Exception {
        Path keys = dir.resolve("provider.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "provider", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", keys.toString(),
                "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD))
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, keytool.waitFor(), output);
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(keys.toFile())) {
            store.load(in, PASSWORD);
        }
        KeyManagerFactory km = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        km.init(store, PASSWORD);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(km.getKeyManagers(), null, null);
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        server.createContext("/v1/chat/completions", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] body = "{\"object\":\"chat.completion\",\"choices\":[]}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("content-type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        client = BatonHttpClient.start(Duration.ofSeconds(2), Thread::new, EngineFixture.TIMER, trust);
    }

    @AfterAll
    static void stop() {
        client.close();
        server.stop(0);
    }

    private static JsonObject call(String host) throws Exception {
        URI uri = URI.create("https://" + host + ":" + server.getAddress().getPort() + "/v1/chat/completions");
        Request request = Request.post(uri, Map.of("content-type", "application/json", "authorization", "Bearer k"),
                "{\"model\":\"m\",\"messages\":[]}");
        return new HttpExchange(client, 1 << 20).json(List.of(uri), u -> request, Duration.ofSeconds(5),
                (status, body, headers) -> new ProviderException(ProviderFailure.transport(FailureKind.SERVER_ERROR,
                        "status " + status))).get(10, TimeUnit.SECONDS);
    }

    @Test
    void aProviderWhoseCertificateNamesTheHostAnswers() throws Exception {
        assertEquals("chat.completion", call("localhost").getString("object"));
    }

    @Test
    void aCertificateForAnotherHostIsRefusedAsAFailedHandshake() {
        ExecutionException e = assertThrows(ExecutionException.class, () -> call("127.0.0.1"));

        ProviderException failure = assertInstanceOf(ProviderException.class, e.getCause());
        assertEquals(FailureKind.CONNECTION, failure.failure().kind());
        assertEquals("TLS handshake failed", failure.failure().message());
    }
}
