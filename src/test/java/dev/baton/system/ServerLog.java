package dev.baton.system;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The log of the server under test, which runs on this machine: Liberty's messages.log or WildFly's server.log. */
final class ServerLog {

    private ServerLog() {
    }

    static String read() throws IOException {
        String wlp = System.getProperty("wlp.home");
        Path log = wlp != null ? Path.of(wlp, "usr", "servers", "arq", "logs", "messages.log")
                : Path.of(System.getProperty("jboss.home"), "standalone", "log", "server.log");
        return Files.readString(log, StandardCharsets.UTF_8);
    }
}
