package dev.baton.langchain4j;

import dev.baton.FailoverEmbeddingService;
import dev.baton.impl.cdi.BatonChatService;
import dev.baton.impl.cdi.BatonExtension;
import dev.baton.impl.cdi.ChatServiceProducer;
import dev.baton.impl.cdi.FailoverPolicyInterceptor;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.Embeddings;
import dev.baton.testkit.ProviderSimulatorExtension;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link BatonEmbeddingModel} over the injected {@link FailoverEmbeddingService}, on the real engine in Weld SE,
 * calling the simulator over loopback HTTP: two OpenAI accounts serve {@code text-embedding-3-small}.
 */
class BatonEmbeddingModelTest {

    private static final String MODEL = "text-embedding-3-small";

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
            config.set("baton.connections." + openAi + ".models", MODEL);
        }
        container = new Weld().disableDiscovery().addExtension(new BatonExtension())
                .addBeanClasses(BatonChatService.class, ChatServiceProducer.class, FailoverPolicyInterceptor.class)
                .initialize();
    }

    @AfterEach
    void shutDown() {
        container.close();
    }

    private EmbeddingModel model(Integer dimensions) {
        FailoverEmbeddingService service = container.select(FailoverEmbeddingService.class).get();
        return dimensions == null ? BatonEmbeddingModel.of(service, MODEL) : BatonEmbeddingModel.of(service, MODEL, dimensions);
    }

    @Test
    void vectorsComeFromTheStandbyWhenThePrimaryFailsAndMatchTheProvidersOwn() {
        sim.account("primary").setDefault(Behavior.serverError());

        Response<List<Embedding>> answer = model(null).embedAll(List.of(TextSegment.from("first"),
                TextSegment.from("second")));

        assertEquals(2, answer.content().size());
        assertArrayEquals(Embeddings.vector(MODEL, "second", 1536), answer.content().get(1).vector());
        assertTrue(answer.tokenUsage().inputTokenCount() > 0);
        assertEquals("base64", sim.account("standby").lastRequest().json().getString("encoding_format"));
    }

    @Test
    void dimensionsReachTheProvider() {
        Embedding embedding = model(256).embed("short").content();

        assertEquals(256, embedding.dimension());
        assertEquals(256, sim.account("primary").lastRequest().json().getInt("dimensions"));
    }

    @Test
    void aFailureOfEveryAccountIsLangChain4jsExceptionCausedByBatons() {
        sim.account("primary").setDefault(Behavior.serverError());
        sim.account("standby").setDefault(Behavior.serverError());

        var e = assertThrows(RuntimeException.class, () -> model(null).embed("x"));

        assertInstanceOf(InternalServerException.class, e, e.toString());
        assertInstanceOf(dev.baton.exception.FailoverException.class, e.getCause());
    }
}
