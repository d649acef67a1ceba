package dev.baton.system;

import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The example application with {@code max-concurrent} on a connection, deployed on a server of the same installation
 * that offers no MicroProfile Fault Tolerance, is refused at deployment with Baton's sentence naming the key and the
 * feature. Not an Arquillian test: the server is one of this class's own, started and stopped here.
 *
 * <ul>
 *   <li>Open Liberty: a server {@code arq-noft} with only what docs/getting-started.md lists as needed (cdi, servlet,
 *       jsonp, mpConfig, concurrent), the archive in its server.xml.</li>
 *   <li>WildFly: the installation's {@code standalone.xml} without the {@code microprofile-fault-tolerance-smallrye}
 *       extension and subsystem, in a server base directory of its own ({@code target/wildfly-noft}), ports offset by
 *       300, the archive dropped into its deployment scanner's directory.</li>
 * </ul>
 */
class NoFaultToleranceIT {

    private static final String NAME = "baton-it-noft";
    private static final String MESSAGE = "baton.connections.standby.max-concurrent needs MicroProfile Fault Tolerance";
    private static final Duration DEPLOYED_WITHIN = Duration.ofSeconds(180);

    private static WebArchive archive() {
        return Deployments.example(NAME + ".war")
                .addClasses(LimitsConfig.class, DeploymentConfig.class)
                .addAsServiceProvider(ConfigSource.class, LimitsConfig.class);
    }

    @Test
    void maxConcurrentIsRefusedAtDeploymentNamingTheKeyAndTheMissingFeature() throws Exception {
        String log = System.getProperty("wlp.home") != null ? onLiberty() : onWildFly();

        assertTrue(log.contains(MESSAGE), "Baton's sentence in the server's log; its tail:\n" + tail(log));
        assertTrue(log.contains("mpFaultTolerance"), "the Liberty feature is named");
        assertFalse(log.contains("NoClassDefFoundError: org/eclipse/microprofile/faulttolerance"), tail(log));
    }

    private static String onLiberty() throws Exception {
        Path wlp = Path.of(System.getProperty("wlp.home"));
        Path dir = wlp.resolve("usr/servers/arq-noft");
        deleteTree(dir);
        Files.createDirectories(dir.resolve("apps"));
        Path war = dir.resolve("apps").resolve(NAME + ".war");
        archive().as(ZipExporter.class).exportTo(war.toFile(), true);
        Files.writeString(dir.resolve("server.xml"), """
                <server description="Baton without MicroProfile Fault Tolerance">
                    <featureManager>
                        <feature>cdi-4.0</feature>
                        <feature>servlet-6.0</feature>
                        <feature>jsonp-2.1</feature>
                        <feature>mpConfig-3.1</feature>
                        <feature>concurrent-3.0</feature>
                    </featureManager>
                    <httpEndpoint id="defaultHttpEndpoint" host="127.0.0.1" httpPort="%d" httpsPort="-1"/>
                    <webApplication location="%s" contextRoot="/noft"/>
                </server>
                """.formatted(freePort(), war));
        Files.writeString(dir.resolve("jvm.options"), "-Xmx256m\n");
        Path log = dir.resolve("logs/messages.log");
        run(wlp.resolve("bin/server").toString(), "start", "arq-noft");
        try {
            // CWWKZ0001I: the application started; CWWKZ0002E: it failed to start.
            awaitLog(log, text -> text.contains("CWWKZ0001I") || text.contains("CWWKZ0002E"));
            String text = Files.readString(log, StandardCharsets.UTF_8);
            assertTrue(text.contains("CWWKZ0002E"), "the application was refused; log tail:\n" + tail(text));
            return text;
        } finally {
            run(wlp.resolve("bin/server").toString(), "stop", "arq-noft");
        }
    }

    private static String onWildFly() throws Exception {
        Path home = Path.of(System.getProperty("jboss.home"));
        Path base = home.getParent().resolve("wildfly-noft");
        deleteTree(base);
        Path configuration = base.resolve("configuration");
        Files.createDirectories(configuration);
        try (Stream<Path> files = Files.list(home.resolve("standalone/configuration"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Files.copy(f, configuration.resolve(f.getFileName()));
            }
        }
        Path xml = configuration.resolve("standalone.xml");
        String withoutFaultTolerance = Files.readString(xml)
                .replaceAll("(?m)^.*fault-tolerance-smallrye.*\\R", "")
                // what Arquillian has deployed on the other server lives in that server's data directory
                .replaceAll("(?s)<deployments>.*?</deployments>", "");
        assertFalse(withoutFaultTolerance.contains("fault-tolerance"), "the subsystem is gone");
        Files.writeString(xml, withoutFaultTolerance);
        Path deployments = Files.createDirectories(base.resolve("deployments"));
        archive().as(ZipExporter.class).exportTo(deployments.resolve(NAME + ".war").toFile(), true);

        Process server = new ProcessBuilder(home.resolve("bin/standalone.sh").toString(), "-c", "standalone.xml",
                "-Djboss.server.base.dir=" + base, "-Djboss.socket.binding.port-offset=300")
                .redirectErrorStream(true).redirectOutput(base.resolve("console.log").toFile()).start();
        try {
            Path failed = deployments.resolve(NAME + ".war.failed");
            Path deployed = deployments.resolve(NAME + ".war.deployed");
            long end = System.nanoTime() + DEPLOYED_WITHIN.toNanos();
            while (!Files.exists(failed) && !Files.exists(deployed)) {
                assertTrue(server.isAlive(), "WildFly stopped; see " + base.resolve("console.log"));
                assertTrue(System.nanoTime() < end, "WildFly deployed or refused the archive within "
                        + DEPLOYED_WITHIN);
                Thread.sleep(250); // the deployment scanner writes a marker file; there is nothing to wait on
            }
            assertTrue(Files.exists(failed), "the deployment was refused");
            return Files.readString(failed) + "\n" + Files.readString(base.resolve("log/server.log"));
        } finally {
            server.descendants().forEach(ProcessHandle::destroy);
            server.destroy();
            server.waitFor();
        }
    }

    private static void awaitLog(Path log, Predicate<String> done) throws Exception {
        long end = System.nanoTime() + DEPLOYED_WITHIN.toNanos();
        while (!(Files.exists(log) && done.test(Files.readString(log, StandardCharsets.UTF_8)))) {
            assertTrue(System.nanoTime() < end, "the server started or refused the application within "
                    + DEPLOYED_WITHIN);
            Thread.sleep(250); // the log is the only signal a server started from its script gives
        }
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
        p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        p.waitFor();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> old = Files.walk(dir)) {
                old.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static String tail(String log) {
        return log.substring(Math.max(0, log.length() - 4000));
    }
}
