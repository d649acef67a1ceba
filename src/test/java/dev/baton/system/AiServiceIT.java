package dev.baton.system;

import dev.baton.FailoverChatService;
import dev.baton.ServedBy;
import dev.baton.exception.FailoverException;
import dev.baton.exception.StreamInterruptedException;
import dev.baton.langchain4j.BatonResponseMetadata;
import dev.baton.record.RequestRecord;
import dev.baton.sample.TravelAssistant;
import dev.baton.sample.WeatherTool;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulator;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.service.Result;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.literal.NamedLiteral;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Inside the server: the sample's LangChain4j AI service {@link TravelAssistant}, built on the CDI bean
 * {@code @Named("mixed") ChatModel} that baton-langchain4j makes of the route {@code mixed}, calls its
 * {@code @Tool} on the Anthropic account after the OpenAI account failed, and its caller reads who served.
 * A streaming model's broken stream ends in {@code onError} on the server too. The provider simulator runs in the
 * server JVM (the sample WAR bundles baton-testkit). The tests share the deployment's connection health, so they
 * run in a fixed order and the streaming one uses a connection of its own.
 */
@ExtendWith(ArquillianExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AiServiceIT {

    @Inject
    TravelAssistant assistant;

    @Inject
    WeatherTool weather;

    @Inject
    FailoverChatService baton;

    @Inject
    @Any
    Instance<Object> beans;

    @Deployment
    static WebArchive deployment() {
        return Deployments.sample("baton-ai-it.war").addClasses(AiServiceIT.class, Deployments.class, Ports.class);
    }

    @Test
    @Order(1)
    void theAiServiceCallsItsToolOnTheAnthropicAccountAfterTheOpenAiAccountFailed() {
        try (ProviderSimulator simulator = ProviderSimulator.start(Ports.simulator())) {
            simulator.account("primary").setDefault(Behavior.overloaded());
            simulator.account("claude").enqueue(Behavior.toolCall("weather", "{\"city\":\"Oslo\"}"),
                    Behavior.reply("It is -3 C and snowing in Oslo."));
            int askedBefore = weather.asked().size();

            Result<String> result = assistant.ask("What is the weather in Oslo?");

            assertEquals("It is -3 C and snowing in Oslo.", result.content());
            assertEquals(List.of("Oslo"), weather.asked().subList(askedBefore, weather.asked().size()));
            assertEquals("weather", result.toolExecutions().get(0).request().name());
            BatonResponseMetadata metadata = assertInstanceOf(BatonResponseMetadata.class,
                    result.finalResponse().metadata());
            ServedBy served = metadata.servedBy().orElseThrow();
            assertEquals("claude", served.connection());
            assertEquals("anthropic", served.provider());
            assertEquals("standby_a", served.position());
            assertEquals("mixed", served.routeName());
            assertEquals("claude-haiku-5-5", result.finalResponse().modelName());
            RequestRecord record = baton.findRecord(metadata.requestId()).orElseThrow();
            assertEquals("primary", record.attempts().get(0).connection(), "the OpenAI account was tried first");
            assertFalse(record.attempts().get(0).succeeded());

            JsonObject second = simulator.account("claude").lastRequest().json();
            JsonArray turns = second.getJsonArray("messages");
            JsonObject toolResult = turns.getJsonObject(turns.size() - 1).getJsonArray("content").getJsonObject(0);
            assertEquals("tool_result", toolResult.getString("type"));
            assertEquals("-3 C and snowing", toolResult.getString("content"));
            assertTrue(second.getString("system").contains("weather tool"), second.getString("system"));
        }
    }

    @Test
    @Order(3)
    void whenNoAccountCanServeTheCallerGetsLangChain4jsTypeWithBatonsExceptionAsTheCause() {
        try (ProviderSimulator simulator = ProviderSimulator.start(Ports.simulator())) {
            simulator.account("primary").setDefault(Behavior.serverError());
            simulator.account("claude").setDefault(Behavior.serverError());

            InternalServerException e = assertThrows(InternalServerException.class,
                    () -> assistant.ask("What is the weather in Oslo?"));

            FailoverException cause = assertInstanceOf(FailoverException.class, e.getCause());
            assertTrue(cause.retryable());
            assertTrue(cause.record().isPresent());
        }
    }

    @Test
    @Order(2)
    void everyRouteIsANamedModelBeanOfBothKinds() {
        for (String route : List.of("demo", "mixed", "internal")) {
            assertTrue(beans.select(ChatModel.class, NamedLiteral.of(route)).isResolvable(), route);
            assertTrue(beans.select(StreamingChatModel.class, NamedLiteral.of(route + "-streaming")).isResolvable(), route);
        }
    }

    @Test
    @Order(4)
    void aStreamingModelEndsABrokenStreamInOnErrorNeverInOnCompleteResponse() throws Exception {
        // The route internal (standby only): the connection the other tests leave alone.
        StreamingChatModel internal = beans.select(StreamingChatModel.class, NamedLiteral.of("internal-streaming")).get();
        try (ProviderSimulator simulator = ProviderSimulator.start(Ports.simulator())) {
            Streamed whole = stream(internal);
            assertEquals("Hello from standby.", whole.answer().get(20, TimeUnit.SECONDS).aiMessage().text());
            BatonResponseMetadata metadata = (BatonResponseMetadata) whole.answer().get().metadata();
            assertEquals("standby", metadata.servedBy().orElseThrow().connection());

            simulator.account("standby").setDefault(Behavior.ok().cutAfter(3)); // the role chunk, "Hello", " from"
            Streamed broken = stream(internal);

            ExecutionException e = assertThrows(ExecutionException.class, () -> broken.answer().get(20, TimeUnit.SECONDS));
            InternalServerException error = assertInstanceOf(InternalServerException.class, e.getCause());
            assertInstanceOf(StreamInterruptedException.class, error.getCause());
            assertEquals(List.of("Hello", " from"), broken.partials());
            Thread.sleep(200);
            assertEquals(1, broken.ends().get(), "onError only, and once");
        }
    }

    /** A streaming call's pieces, its end (the answer or the error) and how many ends the handler saw. */
    private record Streamed(List<String> partials, CompletableFuture<ChatResponse> answer, AtomicInteger ends) {
    }

    private static Streamed stream(StreamingChatModel model) {
        Streamed streamed = new Streamed(new CopyOnWriteArrayList<>(), new CompletableFuture<>(), new AtomicInteger());
        model.chat("Say hello.", new StreamingChatResponseHandler() {
            @Override
            public void onPartialResponse(String partial) {
                streamed.partials().add(partial);
            }

            @Override
            public void onCompleteResponse(ChatResponse response) {
                streamed.ends().incrementAndGet();
                streamed.answer().complete(response);
            }

            @Override
            public void onError(Throwable error) {
                streamed.ends().incrementAndGet();
                streamed.answer().completeExceptionally(error);
            }
        });
        return streamed;
    }
}
