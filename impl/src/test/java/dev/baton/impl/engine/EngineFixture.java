package dev.baton.impl.engine;

import dev.baton.ChatChunk;
import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.ServedBy;
import dev.baton.exception.FailoverException;
import dev.baton.impl.adapter.Adapters;
import dev.baton.impl.concurrent.Scheduler;
import dev.baton.impl.concurrent.DeadlineTimer;
import dev.baton.impl.concurrent.Ticker;
import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.ConfigLoader;
import dev.baton.impl.health.HealthListener;
import dev.baton.impl.http.BatonHttpClient;
import dev.baton.impl.openai.OpenAiAdapter;
import dev.baton.impl.record.InMemoryRecordStore;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;
import dev.baton.testkit.ProviderSimulator;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/** Builds a real engine over loopback HTTP against the simulator, and calls it in either mode. */
public final class EngineFixture {

    static final String KEY_PREFIX = "sk-test-secret-";

    /** One timer and one client for every test engine and adapter, as an application has; daemon threads. */
    public static final DeadlineTimer TIMER = DeadlineTimer.start(Thread::new);
    public static final BatonHttpClient HTTP = BatonHttpClient.start(Duration.ofSeconds(2), Thread::new, TIMER);

    private EngineFixture() {
    }

    /**
     * Properties for connections named after simulator accounts, each serving {@code models}, in probe mode
     * {@code request}: these engines are never stopped, and a background prober left behind by one test would keep
     * sending probes (on virtual time, as fast as loopback answers) to the simulator of the next. The tests of
     * background probing ({@link ProberTest}) turn it on and keep virtual time in hand.
     */
    public static Map<String, String> connections(ProviderSimulator sim, String models, String... accounts) {
        return connections(sim, OpenAiAdapter.ID, models, List.of(accounts));
    }

    /** Connections of any provider kind; each simulator account speaks the wire its path asks for. */
    static Map<String, String> connections(ProviderSimulator sim, String provider, String models, List<String> accounts) {
        Map<String, String> props = new HashMap<>();
        for (String account : accounts) {
            props.put("baton.connections." + account + ".provider", provider);
            props.put("baton.connections." + account + ".base-url", sim.baseUrl(account));
            props.put("baton.connections." + account + ".api-key", KEY_PREFIX + account + "-0123456789");
            props.put("baton.connections." + account + ".models", models);
            props.put("baton.connections." + account + ".probe", "request");
        }
        return props;
    }

    public static BatonConfig config(Map<String, String> props) {
        var config = new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(props, "test", 100)).build();
        return ConfigLoader.load(config, Adapters.discover());
    }

    /**
     * An engine on virtual time: its timeouts and waits run on {@code time}, which is held while an
     * attempt is in flight, so waits between attempts pass at once and a timeout fires only when the
     * test advances past it.
     */
    static FailoverEngine engine(Map<String, String> props, VirtualTime time) {
        return engine(props, time, time, time, HealthListener.NONE, new EngineObserver() {
            @Override
            public void attemptStarted(String requestId, String target) {
                time.hold();
            }

            @Override
            public void attemptEnded(String requestId, AttemptRecord attempt) {
                time.release();
            }

            @Override
            public void probeStarted(String connection) {
                time.hold();
            }

            @Override
            public void probed(RequestRecord probe) {
                time.release();
            }
        });
    }

    /** An engine on virtual time as {@link #engine(Map, VirtualTime)}, drawing its random choices from {@code random}. */
    static FailoverEngine engine(Map<String, String> props, VirtualTime time, RandomGenerator random) {
        BatonConfig config = config(props);
        return new FailoverEngine(FailoverEngine.Parts.of(config, Adapters.create(Adapters.discover(), HTTP, config,
                        time), new InMemoryRecordStore(config.recordCapacity()), time, time)
                .withTime(time, time).withRandom(random).withObserver(new EngineObserver() {
                    @Override
                    public void attemptStarted(String requestId, String target) {
                        time.hold();
                    }

                    @Override
                    public void attemptEnded(String requestId, AttemptRecord attempt) {
                        time.release();
                    }
                }));
    }

    /** An engine on real time, as an application has. */
    public static FailoverEngine engine(Map<String, String> props, InstantSource clock, HealthListener listener,
                                        EngineObserver observer) {
        return engine(props, clock, Ticker.SYSTEM, TIMER, listener, observer);
    }

    /**
     * What {@link #engine(Map, InstantSource, HealthListener, EngineObserver)} builds its engine from, for a test that
     * adds a part of its own (budgets, say): real time for timeouts, {@code clock} for records and budget periods.
     */
    public static FailoverEngine.Parts parts(Map<String, String> props, InstantSource clock) {
        BatonConfig config = config(props);
        return FailoverEngine.Parts.of(config, Adapters.create(Adapters.discover(), HTTP, config, clock),
                new InMemoryRecordStore(config.recordCapacity()), clock, TIMER);
    }

    /** An engine over the adapters found on the class path (OpenAI, Anthropic, Azure…), as the CDI bean builds it. */
    private static FailoverEngine engine(Map<String, String> props, InstantSource clock, Ticker ticker,
                                         Scheduler scheduler, HealthListener listener, EngineObserver observer) {
        BatonConfig config = config(props);
        return new FailoverEngine(FailoverEngine.Parts.of(config, Adapters.create(Adapters.discover(), HTTP, config,
                        clock), new InMemoryRecordStore(config.recordCapacity()), clock, scheduler)
                .withTime(ticker, scheduler).withListener(listener).withObserver(observer));
    }

    /** How a test calls the engine; every scenario that applies to both runs in both. */
    enum Mode {
        COMPLETE {
            @Override
            Call start(FailoverEngine engine, ChatRequest request) {
                CompletableFuture<ChatResponse> answer = engine.complete(dev.baton.impl.engine.Call.of(request));
                return new Call(answer, List.of(), () -> {
                    ChatResponse r = answer.join();
                    return new Outcome(r.content(), r.servedBy(), r.requestId(), null, List.of());
                });
            }
        },
        STREAM {
            @Override
            Call start(FailoverEngine engine, ChatRequest request) {
                Collector collector = new Collector();
                engine.stream(dev.baton.impl.engine.Call.of(request)).subscribe(collector);
                return new Call(collector.done, collector.chunks, () -> {
                    List<ChatChunk> chunks = collector.chunks;
                    StringBuilder text = new StringBuilder();
                    chunks.forEach(c -> text.append(c.contentDelta()));
                    ChatChunk first = chunks.get(0);
                    return new Outcome(text.toString(), first.servedBy(), first.requestId(), null, chunks);
                });
            }
        };

        /** Starts a call; a test that must move time during it does so before {@link Call#outcome}. */
        abstract Call start(FailoverEngine engine, ChatRequest request);

        Outcome call(FailoverEngine engine, ChatRequest request) {
            return start(engine, request).outcome();
        }
    }

    /** A call under way: its end, and (for a stream) the chunks so far. */
    record Call(CompletableFuture<?> done, List<ChatChunk> chunks, Supplier<Outcome> success) {

        Outcome outcome() {
            try {
                done.get(30, TimeUnit.SECONDS);
                return success.get();
            } catch (ExecutionException e) {
                return Outcome.failed((FailoverException) e.getCause(), List.copyOf(chunks));
            } catch (InterruptedException | TimeoutException e) {
                throw new AssertionError("the engine held the caller", e);
            }
        }

        /** Waits until the caller has its first chunk: the stream is committed. */
        void awaitFirstChunk() throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            synchronized (chunks) {
                while (chunks.isEmpty() && !done.isDone() && System.nanoTime() < end) {
                    chunks.wait(10);
                }
            }
        }
    }

    record Outcome(String text, ServedBy servedBy, String requestId, FailoverException error, List<ChatChunk> chunks) {
        static Outcome failed(FailoverException error, List<ChatChunk> chunks) {
            return new Outcome(null, null, error.requestId().orElse(null), error, chunks);
        }

        boolean ok() {
            return error == null;
        }
    }

    /** Takes one chunk at a time, as a servlet writing to a slow client would. */
    public static final class Collector implements Flow.Subscriber<ChatChunk> {
        public final List<ChatChunk> chunks = Collections.synchronizedList(new ArrayList<>());
        public final CompletableFuture<Void> done = new CompletableFuture<>();
        volatile Flow.Subscription subscription;

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(1);
        }

        @Override
        public void onNext(ChatChunk item) {
            synchronized (chunks) {
                chunks.add(item);
                chunks.notifyAll();
            }
            subscription.request(1);
        }

        @Override
        public void onError(Throwable throwable) {
            done.completeExceptionally(throwable);
        }

        @Override
        public void onComplete() {
            done.complete(null);
        }
    }
}
