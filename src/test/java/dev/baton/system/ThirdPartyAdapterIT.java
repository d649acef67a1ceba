package dev.baton.system;

import jakarta.json.JsonObject;
import org.example.echo.EchoAdapterFactory;
import org.example.echo.EchoServer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.importer.ExplodedImporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.http.HttpResponse;

import static dev.baton.system.Gateway.header;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A provider Baton was not built with: the {@code echo} adapter's own jar in the sample WAR's {@code WEB-INF/lib},
 * found by ServiceLoader when the application deploys, its connection key validated, and the endpoint's route
 * {@code echo} served through it, over loopback HTTP to an echo upstream in this JVM.
 */
class ThirdPartyAdapterIT extends ClientSideIT {

    /** Started when the class loads: its port goes into the deployment's configuration. */
    private static final EchoServer ECHO = startEcho();

    @Deployment(testable = false)
    static WebArchive deployment() {
        // A jar of configuration beside the adapter's: ordinal 150, above the sample's file (100).
        JavaArchive config = ShrinkWrap.create(JavaArchive.class, "echo-config.jar")
                .addAsManifestResource(new StringAsset(String.join("\n",
                        "config_ordinal=150",
                        "baton.connections.parrot.provider=echo",
                        "baton.connections.parrot.base-url=" + ECHO.baseUrl("parrot"),
                        "baton.connections.parrot.models=echo-1",
                        "baton.connections.parrot.echo-prefix=echo:",
                        "baton.routes.echo.targets=parrot/echo-1",
                        "baton.endpoint.allowed-models=demo,mixed,gpt-5.4-mini,echo", "")),
                        "microprofile-config.properties");
        return Deployments.sample("baton-it-echo.war").addAsLibraries(adapterJar(), config);
    }

    /** The adapter exactly as its module built it: the jar, or its classes directory when run before packaging. */
    private static JavaArchive adapterJar() {
        File built;
        try {
            built = new File(EchoAdapterFactory.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return built.isFile() ? ShrinkWrap.createFromZipFile(JavaArchive.class, built)
                : ShrinkWrap.create(ExplodedImporter.class, "baton-example-adapter.jar").importDirectory(built)
                        .as(JavaArchive.class);
    }

    private static EchoServer startEcho() {
        try {
            return EchoServer.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static void stopEcho() {
        ECHO.close();
    }

    @Test
    void theEndpointAnswersARouteServedByTheThirdPartyAdapter() {
        HttpResponse<String> response = gateway.postChat(Gateway.chatBody("echo", false));

        assertEquals(200, response.statusCode(), response::body);
        assertEquals("parrot", header(response, "x-baton-connection"));
        JsonObject answer = Gateway.json(response.body());
        assertEquals("echo:Say hello.", answer.getJsonArray("choices").getJsonObject(0).getJsonObject("message")
                .getString("content"), response::body);
        JsonObject sent = ECHO.received().get(ECHO.received().size() - 1);
        assertEquals("echo-1", sent.getString("model"));
        assertEquals("echo:", sent.getString("prefix"), "the adapter's own key reached it as a setting");
    }

    @Test
    void theEndpointStreamsARouteServedByTheThirdPartyAdapter() {
        HttpResponse<String> response = gateway.postChat(Gateway.chatBody("echo", true));

        assertEquals(200, response.statusCode(), response::body);
        assertEquals("parrot", header(response, "x-baton-connection"));
        assertEquals("echo:Say hello.", Gateway.streamedText(Gateway.dataEvents(response.body())), response::body);
    }
}
