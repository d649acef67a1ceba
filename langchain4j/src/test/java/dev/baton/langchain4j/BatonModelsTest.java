package dev.baton.langchain4j;

import dev.baton.FailoverChatService;
import dev.baton.FailureAction;
import dev.baton.FailoverPolicy;
import dev.baton.exception.FailoverException;
import dev.baton.exception.StreamInterruptedException;
import dev.baton.impl.cdi.BatonChatService;
import dev.baton.impl.cdi.BatonExtension;
import dev.baton.impl.cdi.ChatServiceProducer;
import dev.baton.impl.cdi.FailoverPolicyInterceptor;
import dev.baton.record.RequestRecord;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulatorExtension;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.ContentFilteredException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.LangChain4jException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.NonRetriableException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.RetriableException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.Result;
import dev.langchain4j.service.TokenStream;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.literal.NamedLiteral;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Both models, taken from CDI as an application gets them, on the real engine in Weld SE, calling
 * the provider simulator over loopback HTTP. Every scenario runs through the blocking and the
 * streaming model. Routes: {@code chat} (two OpenAI accounts), {@code mixed} (OpenAI, then
 * Anthropic) and {@code solo} (one OpenAI account, no retries: its failure is the caller's).
 */
class BatonModelsTest {

    @RegisterExtension
    static final ProviderSimulatorExtension sim = new ProviderSimulatorExtension();

    @RegisterExtension
    final ConfigProperties config = new ConfigProperties();

    private WeldContainer container;

    @BeforeEach
    void configure() {
        for (String openAi : List.of("primary", "standby")) {
            config.set("baton.connections." + openAi + ".provider", "openai");
            config.set("baton.connections." + openAi + ".base-url", sim.baseUrl(openAi));
            config.set("baton.connections." + openAi + ".models", "gpt-5.4-mini");
        }
        config.set("baton.connections.claude.provider", "anthropic");
        config.set("baton.connections.claude.base-url", sim.baseUrl("claude"));
        config.set("baton.connections.claude.models", "claude-haiku-5-5");
        config.set("baton.routes.chat.targets", "primary/gpt-5.4-mini, standby/gpt-5.4-mini");
        config.set("baton.routes.chat.stream-idle-timeout", "1s");
        config.set("baton.routes.mixed.targets", "primary/gpt-5.4-mini, claude/claude-haiku-5-5");
        config.set("baton.routes.solo.targets", "primary/gpt-5.4-mini");
        config.set("baton.routes.solo.same-target-retries", "0");
    }

    @AfterEach
    void shutDown() {
        if (container != null) {
            container.close();
        }
    }

    private WeldContainer start(Class<?>... beans) {
        container = weld(beans).initialize();
        return container;
    }

    private static Weld weld(Class<?>... beans) {
        return new Weld().disableDiscovery()
                .addExtension(new BatonExtension()).addExtension(new BatonModelsExtension())
                .addBeanClasses(BatonChatService.class, ChatServiceProducer.class, FailoverPolicyInterceptor.class)
                .addBeanClasses(beans);
    }

    private ChatModel chatModel(String name) {
        return container.select(ChatModel.class, NamedLiteral.of(name)).get();
    }

    private StreamingChatModel streamingModel(String name) {
        return container.select(StreamingChatModel.class, NamedLiteral.of(name)).get();
    }

    private Models.Outcome call(Models mode, String route, ChatRequest request) {
        return mode.call(chatModel(route), streamingModel(route + "-streaming"), request);
    }

    private static ChatRequest ask(String text) {
        return ChatRequest.builder().messages(UserMessage.from(text)).build();
    }

    @ParameterizedTest
    @EnumSource(Models.class)
    void answersFromTheRouteAndSaysWhoServed(Models mode) {
        start();

        Models.Outcome outcome = call(mode, "chat", ask("Say hello."));

        ChatResponse answer = outcome.answer();
        assertEquals("Hello from primary.", answer.aiMessage().text());
        assertEquals(FinishReason.STOP, answer.finishReason());
        assertNotNull(answer.tokenUsage(), "usage, in the stream's last chunk too");
        assertTrue(answer.tokenUsage().totalTokenCount() > 0);
        BatonResponseMetadata metadata = assertInstanceOf(BatonResponseMetadata.class, answer.metadata());
        assertEquals("primary", metadata.servedBy().orElseThrow().connection());
        assertEquals("primary", metadata.servedBy().orElseThrow().position());
        assertEquals("chat", metadata.servedBy().orElseThrow().routeName());
        assertEquals("gpt-5.4-mini", answer.modelName());
        FailoverChatService service = container.select(FailoverChatService.class).get();
        RequestRecord record = service.findRecord(metadata.requestId()).orElseThrow();
        assertEquals(mode == Models.STREAMING, record.stream());
        if (mode == Models.STREAMING) {
            assertEquals("Hello from primary.", String.join("", outcome.partials()));
        }
        JsonObject sent = sim.account("primary").lastRequest().json();
        assertEquals("Say hello.", sent.getJsonArray("messages").getJsonObject(0).getString("content"));
    }

    @ParameterizedTest
    @EnumSource(Models.class)
    void theEstimatedCostIsInTheMetadataAsInTheRecord(Models mode) {
        config.set("baton.models.gpt-5.4-mini.price.input", "0.25");
        config.set("baton.models.gpt-5.4-mini.price.output", "2");
        start();

        ChatResponse answer = call(mode, "chat", ask("Say hello.")).answer();

        BatonResponseMetadata metadata = assertInstanceOf(BatonResponseMetadata.class, answer.metadata());
        dev.baton.Cost cost = metadata.cost().orElseThrow();
        assertEquals("custom", cost.priceSource());
        assertEquals("USD", cost.currency());
        assertTrue(cost.amount().signum() > 0, cost.toString());
        RequestRecord record = container.select(FailoverChatService.class).get()
                .findRecord(metadata.requestId()).orElseThrow();
        assertEquals(0, record.cost().amount().compareTo(cost.amount()), "the record's " + record.cost());
    }

    @ParameterizedTest
    @EnumSource(Models.class)
    void anUnpricedModelHasNoCost(Models mode) {
        start();

        ChatResponse answer = call(mode, "chat", ask("Say hello.")).answer();

        assertTrue(((BatonResponseMetadata) answer.metadata()).cost().isEmpty());
    }

    @ParameterizedTest
    @EnumSource(Models.class)
    void aFailoverBeforeTheFirstTokenIsInvisible(Models mode) {
        start();
        sim.account("primary").setDefault(mode == Models.STREAMING
                ? Behavior.ok().streamErrorAfter(1, "server_error", null, "boom") // after the role chunk only
                : Behavior.overloaded());

        Models.Outcome outcome = call(mode, "chat", ask("Say hello."));

        ChatResponse answer = outcome.answer();
        assertEquals("Hello from standby.", answer.aiMessage().text());
        assertEquals(1, outcome.ends(), "one end, and it is the answer");
        if (mode == Models.STREAMING) {
            assertEquals(List.of("Hello", " from", " standby."), outcome.partials(), "nothing of the primary");
        }
        BatonResponseMetadata metadata = (BatonResponseMetadata) answer.metadata();
        assertEquals("standby", metadata.servedBy().orElseThrow().connection());
        assertEquals("standby_a", metadata.servedBy().orElseThrow().position());
        assertTrue(sim.account("primary").requestCount() >= 1);
    }

    @Test
    void aStreamBrokenAfterItsFirstTokensEndsInOnErrorNeverInOnCompleteResponse() {
        start();
        sim.account("primary").setDefault(Behavior.ok().cutAfter(3)); // the role chunk, "Hello", " from", then a cut

        Models.Outcome outcome = call(Models.STREAMING, "chat", ask("Say hello."));

        assertNull(outcome.response(), "never onCompleteResponse");
        assertEquals(1, outcome.ends());
        assertEquals(List.of("Hello", " from"), outcome.partials());
        InternalServerException e = assertInstanceOf(InternalServerException.class, outcome.failure());
        StreamInterruptedException cause = assertInstanceOf(StreamInterruptedException.class, e.getCause());
        assertTrue(cause.retryable());
        assertTrue(cause.record().orElseThrow().committed());
        assertEquals(0, sim.account("standby").requestCount(), "nothing is restarted after the commit point");
    }

    @Test
    void aStreamThatFallsSilentAfterItsFirstTokensIsATimeout() {
        start();
        sim.account("primary").setDefault(Behavior.ok().stallAfter(3));

        Models.Outcome outcome = call(Models.STREAMING, "chat", ask("Say hello."));

        assertNull(outcome.response());
        assertEquals(List.of("Hello", " from"), outcome.partials());
        TimeoutException e = assertInstanceOf(TimeoutException.class, outcome.failure());
        assertEquals("stream_idle_timeout", ((FailoverException) e.getCause()).code());
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                // Baton calls a refused key retryable (another key, or the same one restored, may serve later);
                // LangChain4j's type says that asking again as things are will not help.
                Arguments.of("401", Behavior.unauthorized(), AuthenticationException.class, false, true),
                Arguments.of("404 model not found", Behavior.modelNotFound(), ModelNotFoundException.class, false, false),
                Arguments.of("429 rate limit", Behavior.rateLimited(Duration.ofSeconds(30)), RateLimitException.class,
                        true, true),
                Arguments.of("429 spend limit", Behavior.spendLimit("insufficient_quota"), NonRetriableException.class,
                        false, false),
                Arguments.of("400 invalid", Behavior.invalidRequest("messages: bad", "messages"),
                        InvalidRequestException.class, false, false),
                Arguments.of("content policy", Behavior.contentPolicyViolation(), ContentFilteredException.class,
                        false, false),
                Arguments.of("500", Behavior.serverError(), InternalServerException.class, true, true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void failuresAreLangChain4jTypesCausedByBatonsException(String name, Behavior behavior,
                                                             Class<? extends LangChain4jException> expected,
                                                             boolean retriable, boolean batonRetryable) {
        for (Models mode : Models.values()) {
            start();
            sim.account("primary").setDefault(behavior);

            Models.Outcome outcome = call(mode, "solo", ask("Say hello."));

            assertSame(expected, outcome.failure().getClass(), mode + ": " + outcome.failure());
            assertEquals(retriable, outcome.failure() instanceof RetriableException, mode.name());
            FailoverException cause = assertInstanceOf(FailoverException.class, outcome.failure().getCause());
            assertEquals(batonRetryable, cause.retryable(), mode.name());
            assertEquals(outcome.failure().getMessage(), cause.getMessage());
            assertTrue(cause.record().isPresent(), "the record stays reachable");
            assertEquals(1, outcome.ends());
            if (expected == RateLimitException.class) {
                assertTrue(cause.retryAfter().orElseThrow().toSeconds() >= 29, cause.retryAfter()::toString);
            }
            container.close();
            container = null;
            sim.simulator().reset();
        }
    }

    @ParameterizedTest
    @EnumSource(Models.class)
    void aRequestNamingAnotherModelIsRefusedAsInvalid(Models mode) {
        start();

        Models.Outcome outcome = call(mode, "chat", ChatRequest.builder().messages(UserMessage.from("Hi"))
                .parameters(ChatRequestParameters.builder().modelName("gpt-4o").build()).build());

        InvalidRequestException e = assertInstanceOf(InvalidRequestException.class, outcome.failure());
        assertTrue(e.getMessage().contains("bound to the route `chat`"), e.getMessage());
        assertEquals(0, sim.account("primary").requestCount());
    }

    @ParameterizedTest
    @EnumSource(Models.class)
    void anImageReachesTheAnthropicAccountTheRouteFailsOverTo(Models mode) {
        start();
        sim.account("primary").setDefault(Behavior.overloaded());

        ChatResponse answer = call(mode, "mixed", ChatRequest.builder().messages(UserMessage.from(
                TextContent.from("What is this?"), ImageContent.from("iVBORw0KGgo=", "image/png"))).build()).answer();

        assertEquals("Hello from claude.", answer.aiMessage().text());
        assertEquals("anthropic", ((BatonResponseMetadata) answer.metadata()).servedBy().orElseThrow().provider());
        JsonArray content = sim.account("claude").lastRequest().json().getJsonArray("messages").getJsonObject(0)
                .getJsonArray("content");
        assertEquals("What is this?", content.getJsonObject(0).getString("text"));
        JsonObject source = content.getJsonObject(1).getJsonObject("source");
        assertEquals("base64", source.getString("type"));
        assertEquals("image/png", source.getString("media_type"));
        assertEquals("iVBORw0KGgo=", source.getString("data"));
    }

    // --- An AI service with a tool, failing over from OpenAI to Anthropic ---

    interface Assistant {
        Result<String> chat(String question);
    }

    interface StreamingAssistant {
        TokenStream chat(String question);
    }

    static final class WeatherTools {
        final List<String> cities = new CopyOnWriteArrayList<>();

        @Tool("The current weather in a city")
        String weather(@P(name = "city", value = "the city") String city) {
            cities.add(city);
            return "-3 C and snowing";
        }
    }

    @ParameterizedTest
    @EnumSource(Models.class)
    void anAiServiceCallsItsToolOnTheAccountTheRouteFailedOverTo(Models mode) throws Exception {
        start();
        sim.account("primary").setDefault(Behavior.overloaded());
        sim.account("claude").enqueue(Behavior.toolCall("weather", "{\"city\":\"Oslo\"}"),
                Behavior.reply("It is -3 C and snowing in Oslo."));
        WeatherTools tools = new WeatherTools();

        ChatResponse last;
        String text;
        if (mode == Models.BLOCKING) {
            Assistant assistant = AiServices.builder(Assistant.class).chatModel(chatModel("mixed")).tools(tools).build();
            Result<String> result = assistant.chat("What is the weather in Oslo?");
            text = result.content();
            last = result.finalResponse();
            assertEquals("weather", result.toolExecutions().get(0).request().name());
        } else {
            StreamingAssistant assistant = AiServices.builder(StreamingAssistant.class)
                    .streamingChatModel(streamingModel("mixed-streaming")).tools(tools).build();
            CompletableFuture<ChatResponse> done = new CompletableFuture<>();
            assistant.chat("What is the weather in Oslo?").onPartialResponse(p -> { })
                    .onCompleteResponse(done::complete).onError(done::completeExceptionally).start();
            last = done.get(20, TimeUnit.SECONDS);
            text = last.aiMessage().text();
        }

        assertEquals("It is -3 C and snowing in Oslo.", text);
        assertEquals(List.of("Oslo"), tools.cities);
        BatonResponseMetadata metadata = (BatonResponseMetadata) last.metadata();
        assertEquals("claude", metadata.servedBy().orElseThrow().connection());
        assertEquals("mixed", metadata.servedBy().orElseThrow().routeName());
        JsonObject second = sim.account("claude").lastRequest().json();
        assertEquals("weather", second.getJsonArray("tools").getJsonObject(0).getString("name"));
        JsonArray turns = second.getJsonArray("messages");
        JsonObject toolResult = turns.getJsonObject(turns.size() - 1).getJsonArray("content").getJsonObject(0);
        assertEquals("tool_result", toolResult.getString("type"));
        assertEquals("-3 C and snowing", toolResult.getString("content"));
        assertEquals(2, sim.account("claude").requestCount());
    }

    // --- CDI ---

    @ApplicationScoped
    static class StrictCaller {
        @Inject
        @Named("chat")
        ChatModel chat;

        /** Stops at the first server error instead of failing over: the policy reaches the model's call. */
        @FailoverPolicy(onServerError = FailureAction.STOP, sameTargetRetries = 0)
        String ask(String question) {
            return chat.chat(question);
        }

        String askWithTheRoutePolicy(String question) {
            return chat.chat(question);
        }
    }

    @Test
    void aFailoverPolicyOnTheCallingMethodAppliesToTheNamedModel() {
        start(StrictCaller.class);
        sim.account("primary").setDefault(Behavior.serverError());
        StrictCaller caller = container.select(StrictCaller.class).get();

        assertThrows(InternalServerException.class, () -> caller.ask("Hi"));
        assertEquals(0, sim.account("standby").requestCount());

        assertEquals("Hello from standby.", caller.askWithTheRoutePolicy("Hi"), "without it the route fails over");
    }

    @Test
    void everyRouteIsANamedBeanOfBothTypesAndNoneIsTheDefault() {
        start();

        for (String route : List.of("chat", "mixed", "solo")) {
            assertEquals(route, ((BatonChatModel) chatModel(route)).route());
            assertEquals(route, ((BatonStreamingChatModel) streamingModel(route + "-streaming")).route());
            assertSame(chatModel(route), chatModel(route), "one model per route");
        }
        assertTrue(container.select(ChatModel.class).isUnsatisfied(), "an application's own default ChatModel is never ambiguous");
        assertTrue(container.select(StreamingChatModel.class).isUnsatisfied());
    }

    @Test
    void namesRoutesAndJsonSchemaSupportAreConfigurable() {
        config.set("baton.langchain4j.routes", "mixed");
        config.set("baton.langchain4j.chat-model-name", "baton-{route}");
        config.set("baton.langchain4j.streaming-chat-model-name", "baton-{route}-stream");
        config.set("baton.langchain4j.json-schema-routes", "mixed");
        start();

        assertEquals("mixed", ((BatonChatModel) chatModel("baton-mixed")).route());
        assertEquals("mixed", ((BatonStreamingChatModel) streamingModel("baton-mixed-stream")).route());
        assertEquals(1, chatModel("baton-mixed").supportedCapabilities().size());
        assertTrue(container.select(ChatModel.class, NamedLiteral.of("baton-chat")).isUnsatisfied(), "not listed");
        assertTrue(container.select(ChatModel.class, NamedLiteral.of("mixed")).isUnsatisfied());
    }

    @Test
    void turnedOffThereAreNoModels() {
        config.set("baton.langchain4j.enabled", "false");
        start();

        assertTrue(container.select(ChatModel.class, NamedLiteral.of("chat")).isUnsatisfied());
    }

    @Test
    void aWrongSettingFailsTheDeploymentNamingTheKey() {
        config.set("baton.langchain4j.routes", "chat, nope");
        config.set("baton.langchain4j.chat-model-name", "fixed");
        config.set("baton.langchain4j.streaming-model-name", "x");
        config.set("baton.langchain4j.enabled", "yes");

        String message = deploymentFailure();

        assertTrue(message.contains("baton.langchain4j.routes: 'nope' is not a configured route"), message);
        assertTrue(message.contains("baton.langchain4j.chat-model-name: must contain {route}"), message);
        assertTrue(message.contains("baton.langchain4j.streaming-model-name: unknown key"), message);
        assertTrue(message.contains("baton.langchain4j.enabled: must be true or false but was 'yes'"), message);
    }

    @Test
    void twoModelsCannotShareAName() {
        config.set("baton.langchain4j.streaming-chat-model-name", "{route}");

        String message = deploymentFailure();

        assertTrue(message.contains("would both be named 'chat'"), message);
    }

    private static String deploymentFailure() {
        Weld weld = weld();
        try (WeldContainer ignored = weld.initialize()) {
            fail("the deployment should have failed");
        } catch (DefinitionException e) {
            StringBuilder all = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause()) {
                all.append(t.getMessage()).append('\n');
                Arrays.stream(t.getSuppressed()).forEach(s -> all.append(s.getMessage()).append('\n'));
            }
            return all.toString();
        } finally {
            weld.shutdown();
        }
        throw new AssertionError("unreachable");
    }
}
