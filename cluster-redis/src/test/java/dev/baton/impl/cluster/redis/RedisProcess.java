package dev.baton.impl.cluster.redis;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A {@code redis-server} of a test's own on a free loopback port, in the foreground so the test can
 * kill it, freeze it (SIGSTOP) and start it again on the same port. No persistence: a restarted
 * server is empty, as after a failover to a fresh replica.
 */
public final class RedisProcess implements AutoCloseable {

    /** The Redis every developer machine and CI run has ({@code .ci/run} starts it when it is not answering). */
    public static final String SHARED_URL = "redis://127.0.0.1:6379";

    private final int port;
    private final Path dir;
    private Process process;

    private RedisProcess(int port) throws IOException {
        this.port = port;
        this.dir = Files.createTempDirectory("baton-redis-");
    }

    public static RedisProcess start() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        RedisProcess redis = new RedisProcess(port);
        redis.restart();
        return redis;
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** Starts the server (again) on its port and waits until it accepts connections. */
    public void restart() throws Exception {
        process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < end) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(20);
            }
        }
        throw new IllegalStateException("redis-server did not start on port " + port);
    }

    /** Kills the server at once (SIGKILL): its clients see their connections reset. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** Freezes (SIGSTOP) or thaws (SIGCONT) the server: connections stay open, nothing is answered. */
    public void freeze(boolean frozen) throws Exception {
        new ProcessBuilder("kill", frozen ? "-STOP" : "-CONT", Long.toString(process.pid())).inheritIO().start().waitFor();
    }

    @Override
    public void close() throws Exception {
        if (process != null && process.isAlive()) {
            freeze(false);
            kill();
        }
    }
}
