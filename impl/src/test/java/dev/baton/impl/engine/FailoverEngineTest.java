package dev.baton.impl.engine;

import dev.baton.ChatChunk;
import dev.baton.ChatRequest;
import dev.baton.FailureKind;
import dev.baton.exception.RequestRejectedException;
import dev.baton.exception.StreamInterruptedException;
import dev.baton.exception.UpstreamFailedException;
import dev.baton.impl.engine.EngineFixture.Mode;
import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.impl.engine.EngineFixture.Outcome;
import dev.baton.record.AttemptRecord;
import dev.baton.record.RequestRecord;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.baton.impl.engine.EngineFixture.connections;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engine over real loopback HTTP against the provider simulator; no mocked adapters. */
class FailoverEngineTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    private final VirtualTime clock = new VirtualTime();
    private FailoverEngine engine;


    /** A route "chat" over accounts a, b (and c) serving model m, with short timeouts. */
    private Map<String, String> route(String... accounts) {
        Map<String, String> props = connections(sim.simulator(), "m", accounts);
        props.put("baton.routes.chat.targets", String.join(",",
                java.util.Arrays.stream(accounts).map(a -> a + "/m").toList()));
        props.put("baton.routes.chat.deadline", "5s");
        props.put("baton.routes.chat.attempt-timeout", "700ms");
        props.put("baton.routes.chat.first-token-timeout", "700ms");
        props.put("baton.routes.chat.stream-idle-timeout", "500ms");
        props.put("baton.routes.chat.retry-backoff", "10ms");
        return props;
    }

    private FailoverEngine start(Map<String, String> props) {
        engine = EngineFixture.engine(props, clock);
        return engine;
    }

    private static ChatRequest chat() {
        return ChatRequest.of("chat", "Say hello.");
    }

    private RequestRecord record(Outcome outcome) {
        assertNotNull(outcome.requestId(), "every outcome names its request id");
        return engine.findRecord(outcome.requestId()).orElseThrow();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aStalledPrimaryIsAskedOnceAndTheStandbyServesWithinTheDeadline(Mode mode) throws InterruptedException {
        start(route("a", "b"));
        sim.account("a").setDefault(Behavior.noResponse());

        long started = clock.nanos();
        EngineFixture.Call call = mode.start(engine, chat());
        assertTrue(sim.account("a").awaitRequests(1, Duration.ofSeconds(5)));
        clock.advance(Duration.ofMillis(700)); // the attempt timeout
        Outcome outcome = call.outcome();
        long tookMs = clock.since(started).toMillis();

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("Hello from b.", outcome.text());
        assertEquals("standby_a", outcome.servedBy().position());
        assertEquals(1, sim.account("a").requestCount(), "a silent target is not asked twice");
        assertTrue(tookMs < 5_000, "served within the deadline, took " + tookMs + " ms");
        RequestRecord record = record(outcome);
        assertEquals(FailureKind.TIMEOUT, record.attempts().get(0).kind());
        assertTrue(record.attempts().get(1).succeeded());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aRateLimitedAccountIsParkedForItsRetryAfterAndNeverEjected(Mode mode) {
        start(route("a", "b"));
        sim.account("a").enqueue(Behavior.rateLimited(Duration.ofSeconds(20)));

        Outcome first = mode.call(engine, chat());
        assertEquals("b", first.servedBy().connection());
        assertEquals(FailureKind.RATE_LIMIT, record(first).attempts().get(0).kind());
        for (int i = 0; i < 8; i++) {
            assertEquals("b", mode.call(engine, chat()).servedBy().connection());
        }
        assertEquals(1, sim.account("a").requestCount(), "not contacted again during its Retry-After");
        assertEquals("healthy", engine.health().of("a").snapshot().state(), "a 429 never ejects");

        clock.advance(Duration.ofSeconds(21));
        assertEquals("a", mode.call(engine, chat()).servedBy().connection(), "back in rotation after Retry-After");
    }

    @Test
    void repeatedServerErrorsEjectTheConnectionThenOneProbeDecidesItsReturn() {
        Map<String, String> props = route("a", "b");
        props.put("baton.routes.chat.same-target-retries", "0");
        start(props);
        sim.account("a").setDefault(Behavior.overloaded());

        for (int i = 0; i < 5; i++) {
            assertEquals("b", Mode.COMPLETE.call(engine, chat()).servedBy().connection());
        }
        assertEquals(5, sim.account("a").requestCount());
        assertEquals("ejected", engine.health().of("a").snapshot().state());

        for (int i = 0; i < 10; i++) {
            Outcome o = Mode.COMPLETE.call(engine, chat());
            assertEquals("b", o.servedBy().connection());
            assertEquals(1, record(o).attempts().size(), "an ejected target costs no attempt");
        }
        assertEquals(5, sim.account("a").requestCount(), "zero requests reach it while ejected");

        clock.advance(Duration.ofSeconds(30));
        Mode.COMPLETE.call(engine, chat());
        assertEquals(6, sim.account("a").requestCount(), "exactly one probe after the cool-off");
        assertEquals(Duration.ofSeconds(60), engine.health().of("a").snapshot().coolOff(), "a failed probe doubles it");

        clock.advance(Duration.ofSeconds(30));
        Mode.COMPLETE.call(engine, chat());
        assertEquals(6, sim.account("a").requestCount(), "still ejected: the cool-off grew to 60 s");

        clock.advance(Duration.ofSeconds(30));
        sim.account("a").setDefault(Behavior.ok());
        assertEquals("a", Mode.COMPLETE.call(engine, chat()).servedBy().connection(), "a successful probe serves");
        assertEquals("healthy", engine.health().of("a").snapshot().state());
        assertEquals("a", Mode.COMPLETE.call(engine, chat()).servedBy().connection(), "and restores it");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aRejectedCredentialFailsOverAndEjectsTheConnectionAtOnce(Mode mode) {
        start(route("a", "b"));
        sim.account("a").setDefault(Behavior.unauthorized());

        Outcome first = mode.call(engine, chat());
        assertEquals("b", first.servedBy().connection());
        AttemptRecord failed = record(first).attempts().get(0);
        assertEquals(FailureKind.CREDENTIAL, failed.kind());
        assertEquals(401, failed.httpStatus());
        assertFalse(failed.message().contains("sk-proj"), "no key shape in the record: " + failed.message());

        assertEquals("ejected", engine.health().of("a").snapshot().state(), "one 401 ejects");
        assertEquals("b", mode.call(engine, chat()).servedBy().connection());
        assertEquals(1, sim.account("a").requestCount(), "never retried, and the next request does not hit it again");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aRouteCanStopOnASpendLimitAndNeverSpendAroundIt(Mode mode) {
        Map<String, String> props = route("a", "b");
        props.put("baton.routes.chat.on.spend_limit", "stop");
        start(props);
        sim.account("a").setDefault(Behavior.spendLimit("project_spend_limit_exceeded"));

        Outcome outcome = mode.call(engine, chat());

        UpstreamFailedException error = assertInstanceOf(UpstreamFailedException.class, outcome.error());
        assertEquals(429, error.httpStatus());
        assertEquals("provider_spend_limit", error.code());
        assertTrue(error.retryAfter().isEmpty(), "waiting does not restore access");
        assertFalse(error.retryable());
        assertEquals(1, sim.account("a").requestCount());
        assertEquals(0, sim.account("b").requestCount(), "stop: nothing spends around the limit");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aSpendLimitMovesToAnotherAccountByDefaultAndNeverRetriesThatAccount(Mode mode) {
        start(route("a", "b"));
        sim.account("a").setDefault(Behavior.spendLimit("insufficient_quota"));

        assertEquals("b", mode.call(engine, chat()).servedBy().connection());
        assertEquals("b", mode.call(engine, chat()).servedBy().connection());
        assertEquals(1, sim.account("a").requestCount(), "parked for 15 minutes after the first");
        assertEquals("parked", engine.health().of("a").snapshot().rotation());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anInvalidRequestIsNotSentToAnotherKeyOfTheSameProviderAndComesBackAsA400(Mode mode) {
        start(route("a", "b"));
        sim.account("a").setDefault(Behavior.contextLengthExceeded());

        Outcome outcome = mode.call(engine, chat());

        UpstreamFailedException error = assertInstanceOf(UpstreamFailedException.class, outcome.error());
        assertEquals(400, error.httpStatus());
        assertEquals("context_length_exceeded", error.code());
        assertTrue(error.getMessage().contains("maximum context length"), "the provider's own message: " + error.getMessage());
        assertEquals(0, sim.account("b").requestCount(), "another key of the same provider would fail the same way");
        assertEquals(1, record(outcome).skipped().size());
    }

    @Test
    void whenEveryTargetRejectsTheRequestTheCallerGetsTheProvidersMessage() {
        Map<String, String> props = connections(sim.simulator(), "m1", "a");
        props.putAll(connections(sim.simulator(), "m2", "b"));
        props.put("baton.routes.chat.targets", "a/m1, b/m2");
        start(props);
        sim.account("a").setDefault(Behavior.invalidRequest("Unsupported parameter: 'foo'.", "foo"));
        sim.account("b").setDefault(Behavior.invalidRequest("Unsupported parameter: 'foo'.", "foo"));

        Outcome outcome = Mode.COMPLETE.call(engine, chat());

        assertEquals(400, outcome.error().httpStatus(), outcome.error()::getMessage);
        assertTrue(outcome.error().getMessage().contains("Unsupported parameter"));
        assertEquals(1, sim.account("b").requestCount(), "a different model is worth one attempt");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aContentPolicyRefusalStops(Mode mode) {
        start(route("a", "b"));
        sim.account("a").setDefault(Behavior.contentPolicyViolation());

        Outcome outcome = mode.call(engine, chat());

        assertEquals(403, outcome.error().httpStatus());
        assertEquals(0, sim.account("b").requestCount());
    }

    @Test
    void aStreamCutAfterItsFirstOutputEndsWithAnErrorAndIsNeverRestarted() {
        start(route("a", "b"));
        sim.account("a").enqueue(Behavior.ok().cutAfter(2));

        Outcome outcome = Mode.STREAM.call(engine, chat());

        StreamInterruptedException error = assertInstanceOf(StreamInterruptedException.class, outcome.error());
        assertEquals("stream_interrupted", error.code());
        assertEquals("Hello", outcome.chunks().stream().map(c -> c.contentDelta()).reduce("", String::concat));
        assertEquals(0, sim.account("b").requestCount(), "nothing restarts after the commit point");
        RequestRecord record = record(outcome);
        assertTrue(record.committed());
        assertFalse(record.ok());
        assertTrue(record.attempts().get(0).afterCommit());
    }

    @Test
    void aFailureBeforeTheFirstOutputIsInvisibleToTheStreamingCaller() {
        start(route("a", "b"));
        sim.account("a").setDefault(Behavior.ok().cutAfter(1)); // only the role chunk, then the connection drops
        sim.account("b").enqueue(Behavior.overloaded());

        Outcome outcome = Mode.STREAM.call(engine, chat());

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("Hello from b.", outcome.text());
        long roleChunks = outcome.chunks().stream()
                .filter(c -> c.body().getJsonArray("choices").stream().anyMatch(ch -> ch.asJsonObject()
                        .getJsonObject("delta").containsKey("role"))).count();
        assertEquals(1, roleChunks, "only the serving target's clean stream: " + outcome.chunks());
        assertEquals("b", outcome.servedBy().connection());
        assertEquals(4, record(outcome).attempts().size(), "a cut twice, b 503, b retried");
    }

    @Test
    void aStreamThatStallsAfterItsFirstOutputIsEndedByTheIdleTimeout() throws InterruptedException {
        start(route("a", "b"));
        sim.account("a").enqueue(Behavior.ok().stallAfter(2));

        EngineFixture.Call call = Mode.STREAM.start(engine, chat());
        call.awaitFirstChunk();
        clock.advance(Duration.ofMillis(500)); // the stream idle timeout
        Outcome outcome = call.outcome();

        assertEquals("stream_idle_timeout", outcome.error().code());
        assertTrue(sim.account("a").lastRequest().awaitClientDisconnect(Duration.ofSeconds(5)),
                "the stalled upstream exchange is closed");
        assertEquals(0, sim.account("b").requestCount());
    }

    /** The first-token timer, still armed after the commit point when the idle window is longer, only looks at it. */
    @Test
    void aCommittedStreamOutlivesItsFirstTokenDeadlineAndStillEndsAtTheIdleTimeout() throws InterruptedException {
        Map<String, String> props = route("a", "b");
        props.put("baton.routes.chat.stream-idle-timeout", "1s");
        start(props);
        sim.account("a").enqueue(Behavior.ok().stallAfter(2));

        EngineFixture.Call call = Mode.STREAM.start(engine, chat());
        call.awaitFirstChunk();
        clock.advance(Duration.ofMillis(700)); // the first-token timeout: the stream is past it
        Thread.sleep(200);
        assertFalse(call.done().isDone(), "a committed stream is not failed by its first-token deadline");
        clock.advance(Duration.ofMillis(300)); // the rest of the idle window
        Outcome outcome = call.outcome();

        assertEquals("stream_idle_timeout", outcome.error().code());
        assertEquals(0, sim.account("b").requestCount());
    }

    @Test
    void malformedEventsAreSkippedAndAStreamWithoutDoneStillCompletes() {
        start(route("a"));
        sim.account("a").enqueue(Behavior.ok().malformedEventAfter(2).withoutDone());

        Outcome outcome = Mode.STREAM.call(engine, chat());

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("Hello from a.", outcome.text());
        assertEquals("stop", outcome.chunks().get(outcome.chunks().size() - 1).finishReason());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void whenEverythingIsDownTheCallerGetsOneClearErrorNamingEveryAttempt(Mode mode) {
        start(route("a", "b"));
        sim.account("a").setDefault(Behavior.serverError());
        sim.account("b").setDefault(Behavior.badGateway());

        Outcome outcome = mode.call(engine, chat());

        UpstreamFailedException error = assertInstanceOf(UpstreamFailedException.class, outcome.error());
        assertEquals(502, error.httpStatus(), error::getMessage);
        assertEquals("upstream_error", error.code());
        assertTrue(error.retryable());
        assertTrue(error.getMessage().contains("a/m (primary)") && error.getMessage().contains("b/m (standby_a)"),
                error.getMessage());
        RequestRecord record = record(outcome);
        assertEquals(4, record.attempts().size(), "each target once plus its one same-target retry");
        assertEquals(1, record.attempts().get(1).retry());
        assertFalse(error.getMessage().contains(EngineFixture.KEY_PREFIX), "no key in the message");
        assertEquals(record, error.record().orElseThrow());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void noAttemptStartsAfterTheDeadlineAndNoCallerIsHeldPastIt(Mode mode) throws InterruptedException {
        Map<String, String> props = route("a", "b", "c");
        props.put("baton.routes.chat.deadline", "1s");
        start(props);
        sim.account("a").setDefault(Behavior.noResponse());
        sim.account("b").setDefault(Behavior.noResponse());

        long started = clock.nanos();
        EngineFixture.Call call = mode.start(engine, chat());
        assertTrue(sim.account("a").awaitRequests(1, Duration.ofSeconds(5)));
        clock.advance(Duration.ofMillis(700)); // a's attempt timeout
        assertTrue(sim.account("b").awaitRequests(1, Duration.ofSeconds(5)));
        clock.advance(Duration.ofMillis(300)); // b's, cut to what was left of the deadline
        Outcome outcome = call.outcome();
        long tookMs = clock.since(started).toMillis();

        assertEquals(408, outcome.error().httpStatus());
        assertTrue(tookMs < 1_400, "held " + tookMs + " ms past a 1 s deadline");
        assertEquals(0, sim.account("c").requestCount(), "no attempt after the deadline");
        assertEquals(1, record(outcome).skipped().size());
    }

    @Test
    void theCallersOwnTimeoutShortensTheDeadline() throws InterruptedException {
        Map<String, String> props = route("a", "b");
        props.put("baton.routes.chat.attempt-timeout", "10s");
        start(props);
        sim.account("a").setDefault(Behavior.noResponse());

        long started = clock.nanos();
        EngineFixture.Call call = Mode.COMPLETE.start(engine, chat().withTimeout(Duration.ofMillis(600)));
        assertTrue(sim.account("a").awaitRequests(1, Duration.ofSeconds(5)));
        clock.advance(Duration.ofMillis(600));
        Outcome outcome = call.outcome();
        long tookMs = clock.since(started).toMillis();

        assertEquals(408, outcome.error().httpStatus());
        assertTrue(tookMs < 1_000, "took " + tookMs + " ms");
    }

    @Test
    void aTransientErrorIsRetriedOnceOnTheSameTarget() {
        start(route("a", "b"));
        sim.account("a").enqueue(Behavior.overloaded());

        Outcome outcome = Mode.COMPLETE.call(engine, chat());

        assertEquals("primary", outcome.servedBy().position());
        RequestRecord record = record(outcome);
        assertEquals(2, record.attempts().size());
        assertEquals(FailureKind.SERVER_ERROR, record.attempts().get(0).kind());
        assertEquals(1, record.attempts().get(1).retry());
    }

    @Test
    void aSpentRetryBudgetTurnsRetriesIntoFailovers() {
        Map<String, String> props = route("a", "b");
        props.put("baton.retry-budget.percent", "0");
        props.put("baton.retry-budget.min-per-second", "0");
        start(props);
        sim.account("a").enqueue(Behavior.overloaded());

        Outcome outcome = Mode.COMPLETE.call(engine, chat());

        assertEquals("b", outcome.servedBy().connection());
        assertEquals(1, sim.account("a").requestCount());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aFallbackModelServesWhenEveryConnectionOfTheRequestedModelFailed(Mode mode) {
        Map<String, String> props = connections(sim.simulator(), "m1", "a");
        props.putAll(connections(sim.simulator(), "m2", "b"));
        start(props);
        sim.account("a").setDefault(Behavior.modelNotFound());

        Outcome outcome = mode.call(engine, ChatRequest.builder().model("m1").message("user", "hi")
                .fallbacks("m2").build());

        assertTrue(outcome.ok(), () -> "failed: " + outcome.error());
        assertEquals("m2", outcome.servedBy().model());
        assertEquals("standby_a", outcome.servedBy().position());
        assertNull(outcome.servedBy().routeName());
        assertEquals("m2", sim.account("b").lastRequest().json().getString("model"), "model rewritten per target");
    }

    @Test
    void anUnknownFallbackIsRefusedUpFrontNamingEachEntry() {
        start(connections(sim.simulator(), "m1", "a"));

        Outcome outcome = Mode.COMPLETE.call(engine, ChatRequest.builder().model("m1").message("user", "hi")
                .fallbacks("m1", "nope", "also-nope").build());

        RequestRejectedException error = assertInstanceOf(RequestRejectedException.class, outcome.error());
        assertEquals("unknown_fallback_model", error.code());
        assertTrue(error.getMessage().contains("fallbacks[1]: `nope`") && error.getMessage().contains("fallbacks[2]"),
                error.getMessage());
        assertEquals(0, sim.account("a").requestCount());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"role\": \"user\", \"content\": 42}",
            "{\"role\": \"user\", \"content\": {\"text\": \"hi\"}}",
            "{\"role\": \"user\", \"content\": [\"hi\"]}",
            "{\"role\": \"user\", \"content\": [{\"text\": \"hi\"}]}",
            "{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": 7}]}"})
    void aMistypedContentIsRefusedNamingTheFieldAndCallsNoProvider(String message) {
        start(route("a"));

        Outcome outcome = Mode.COMPLETE.call(engine, ChatRequest.fromJson(
                "{\"model\": \"chat\", \"messages\": [{\"role\": \"system\", \"content\": \"Be brief.\"}, " + message + "]}"));

        RequestRejectedException error = assertInstanceOf(RequestRejectedException.class, outcome.error());
        assertEquals(400, error.httpStatus());
        assertTrue(error.param().startsWith("messages[1].content"), error.param());
        assertEquals(0, sim.account("a").requestCount());
    }

    @Test
    void unknownFieldsReachTheProviderUntouched() {
        start(route("a"));

        Mode.COMPLETE.call(engine, ChatRequest.builder().model("chat").message("user", "hi")
                .param("some_new_param", "value").param("temperature", 0.2).build());

        var sent = sim.account("a").lastRequest().json();
        assertEquals("value", sent.getString("some_new_param"));
        assertEquals("m", sent.getString("model"));
        assertFalse(sent.containsKey("fallbacks"));
        assertEquals("Bearer " + EngineFixture.KEY_PREFIX + "a-0123456789",
                sim.account("a").lastRequest().header("authorization").orElseThrow());
    }

    @Test
    void aCallerThatCancelsAStreamClosesTheUpstreamExchangeAtOnce() throws InterruptedException {
        start(route("a"));
        sim.account("a").enqueue(Behavior.reply("one two three four five six").eventInterval(Duration.ofMillis(300)));
        var firstChunk = new java.util.concurrent.CompletableFuture<String>();
        engine.stream(Call.of(chat())).subscribe(new java.util.concurrent.Flow.Subscriber<>() {
            java.util.concurrent.Flow.Subscription subscription;

            @Override
            public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
                subscription = s;
                s.request(1);
            }

            @Override
            public void onNext(dev.baton.ChatChunk chunk) {
                subscription.cancel();
                firstChunk.complete(chunk.requestId());
            }

            @Override
            public void onError(Throwable t) {
                firstChunk.completeExceptionally(t);
            }

            @Override
            public void onComplete() {
            }
        });

        String id = firstChunk.join();
        assertTrue(sim.account("a").lastRequest().awaitClientDisconnect(Duration.ofSeconds(2)),
                "the upstream connection is closed when the caller goes away");
        RequestRecord record = engine.findRecord(id).orElseThrow();
        assertEquals("client_closed_request", record.errorCode());
        assertEquals(499, record.httpStatus());
        assertTrue(record.committed(), "output had reached the caller");
        assertEquals("a", record.servedBy().connection());
        assertEquals(1, record.attempts().size());
        assertTrue(record.attempts().get(0).abandoned());
        assertFalse(record.attempts().get(0).succeeded());
        assertEquals("healthy", engine.health().of("a").snapshot().state(), "the provider did nothing wrong");
    }

    /**
     * The engine's stream gives no more chunks than asked for, before the commit point (held chunks released with the
     * first output wait for demand) and after it (demand goes to the provider's stream as it comes), and loses none.
     */
    @Test
    void aStreamGivesExactlyTheChunksAskedForAndAllOfThemInOrder() throws Exception {
        start(route("a"));
        sim.account("a").enqueue(Behavior.reply("one two three four five six seven"));
        List<ChatChunk> received = new java.util.concurrent.CopyOnWriteArrayList<>();
        var done = new java.util.concurrent.CompletableFuture<Void>();
        var subscription = new java.util.concurrent.CompletableFuture<java.util.concurrent.Flow.Subscription>();
        engine.stream(Call.of(chat())).subscribe(new java.util.concurrent.Flow.Subscriber<>() {
            @Override
            public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
                subscription.complete(s);
            }

            @Override
            public void onNext(ChatChunk chunk) {
                received.add(chunk);
            }

            @Override
            public void onError(Throwable t) {
                done.completeExceptionally(t);
            }

            @Override
            public void onComplete() {
                done.complete(null);
            }
        });
        var s = subscription.get(5, TimeUnit.SECONDS);
        int asked = 0;
        for (int n : new int[] {1, 1, 2, 1}) { // the reply is a role chunk, a chunk a word and a finish
            s.request(n);
            asked += n;
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (received.size() < asked && System.nanoTime() < until) {
                Thread.sleep(5);
            }
            Thread.sleep(100); // time for a chunk too many to arrive
            assertEquals(asked, received.size(), "chunks after asking for " + asked + ": " + received);
            assertFalse(done.isDone(), "the stream ended before its last chunk was asked for");
        }
        s.request(Long.MAX_VALUE);
        done.get(5, TimeUnit.SECONDS);
        assertEquals("one two three four five six seven", received.stream().map(ChatChunk::contentDelta)
                .filter(java.util.Objects::nonNull).reduce("", String::concat));
        assertTrue(received.stream().anyMatch(c -> "stop".equals(c.finishReason())), received.toString());
    }

    @Test
    void aStreamForAnUnknownModelIsRefusedBeforeAnyProviderIsCalled() {
        start(route("a"));

        Outcome outcome = Mode.STREAM.call(engine, ChatRequest.of("no-such-model", "hi"));

        assertEquals(404, outcome.error().httpStatus());
        assertEquals("model_not_found", outcome.error().code());
        assertEquals(0, sim.account("a").requestCount());
    }

    /**
     * 200 requests while every target fails: before ejection each request pays for every target
     * and its retry; after it, none reaches a provider. The numbers are printed for the record.
     */
    @Test
    void aWideOutageCostsAboutNothingOnceTheTargetsAreEjected() {
        engine = EngineFixture.engine(route("a", "b"), clock);
        sim.account("a").setDefault(Behavior.serverError());
        sim.account("b").setDefault(Behavior.serverError());

        int[] upstreamPerRequest = new int[200];
        int before = 0;
        for (int i = 0; i < 200; i++) {
            Mode.COMPLETE.call(engine, chat());
            int now = sim.account("a").requestCount() + sim.account("b").requestCount();
            upstreamPerRequest[i] = now - before;
            before = now;
        }
        int firstThree = upstreamPerRequest[0] + upstreamPerRequest[1] + upstreamPerRequest[2];
        int rest = java.util.Arrays.stream(upstreamPerRequest, 3, 200).sum();
        System.out.printf("wide outage: upstream attempts for requests 1-3: %s; requests 4-200: %d in total%n",
                java.util.Arrays.toString(java.util.Arrays.copyOf(upstreamPerRequest, 3)), rest);
        assertEquals(4, upstreamPerRequest[0], "two targets, one retry each");
        assertEquals(10, firstThree, "five counted failures per target eject it");
        assertEquals(0, rest, "zero attempts while both are ejected");
        Outcome last = Mode.COMPLETE.call(engine, chat());
        assertEquals(503, last.error().httpStatus());
        assertEquals("no_available_provider", last.error().code());
        assertTrue(last.error().retryAfter().orElseThrow().getSeconds() > 0);
    }
}
