package dev.baton.impl.engine;

import dev.baton.ChatRequest;
import dev.baton.impl.health.HealthListener;
import dev.baton.testkit.ProviderSimulatorExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Clock;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No thread per request or per async step (issue 11): 5,000 requests through a real engine over loopback, half
 * whole and half streamed, may start only a few threads once a warm-up has run.
 *
 * <p>Surefire runs impl's tests with the common pool's parallelism at 1, as on a 2-CPU machine: there an async
 * step without an executor starts a thread of its own, so this test catches one on any machine.
 *
 * <p>The simulator serves each connection on a thread of its cached pool, which the warm-up fills. Baton keeps its
 * connections open, but may still open one more now and then: a request can complete, and the next one lease,
 * before the client returned the last connection to its pool. The simulator's threads for those are not Baton's:
 * they stay alive in its pool for a minute, so the test counts them by name and leaves them out.
 */
class ThreadCountTest {

    static final int CONCURRENCY = 32;
    static final int WARM_UP = 1_000;
    static final int REQUESTS = 5_000;
    static final int ALLOWED = 20;

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    @Test
    void fiveThousandRequestsStartNoThreadPerRequest() throws Exception {
        FailoverEngine engine = EngineFixture.engine(EngineFixture.connections(sim.simulator(), "m", "a"),
                Clock.systemUTC(), HealthListener.NONE, EngineObserver.NONE);
        run(engine, WARM_UP);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Set<String> living = names();
        long before = threads.getTotalStartedThreadCount();
        long startNanos = System.nanoTime();

        run(engine, REQUESTS);

        long started = threads.getTotalStartedThreadCount() - before;
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        Set<String> born = names();
        born.removeAll(living);
        long simulator = born.stream().filter(name -> name.startsWith("baton-sim-")).count();
        long baton = started - simulator;
        System.out.printf("ThreadCountTest: %d requests (%d at a time) in %.2f s, %.0f requests/s;"
                + " %d threads started (%d of them the simulator's)%n", REQUESTS, CONCURRENCY, seconds,
                REQUESTS / seconds, started, simulator);
        assertTrue(baton <= ALLOWED, baton + " threads started for " + REQUESTS + " requests; alive: " + born);
    }

    private static Set<String> names() {
        Set<String> names = new TreeSet<>();
        Thread.getAllStackTraces().keySet().forEach(t -> names.add(t.getName()));
        return names;
    }

    /** Sends {@code count} requests, alternately whole and streamed, at most {@link #CONCURRENCY} at a time. */
    private static void run(FailoverEngine engine, int count) throws InterruptedException {
        Semaphore slots = new Semaphore(CONCURRENCY);
        CountDownLatch done = new CountDownLatch(count);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Runnable finished = () -> {
            slots.release();
            done.countDown();
        };
        for (int i = 0; i < count; i++) {
            slots.acquire();
            CompletableFuture<?> answered;
            if (i % 2 == 0) {
                answered = engine.complete(Call.of(ChatRequest.of("m", "Say hello.")));
            } else {
                EngineFixture.Collector stream = new EngineFixture.Collector();
                engine.stream(Call.of(ChatRequest.of("m", "Say hello.").withStream(true))).subscribe(stream);
                answered = stream.done;
            }
            answered.whenComplete((answer, error) -> {
                if (error != null) {
                    failure.compareAndSet(null, error);
                }
                finished.run();
            });
        }
        assertTrue(done.await(2, TimeUnit.MINUTES), "requests still open: " + done.getCount());
        assertNull(failure.get());
    }
}
