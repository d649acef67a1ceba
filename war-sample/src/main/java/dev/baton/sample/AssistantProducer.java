package dev.baton.sample;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Named;

/**
 * Builds the {@link TravelAssistant} from the Baton route {@code mixed}, which baton-langchain4j
 * makes a {@code ChatModel} bean named {@code mixed}. With LangChain4J-CDI the same would be
 * {@code @RegisterAIService(chatModelName = "mixed", tools = WeatherTool.class)} on the interface
 * (see docs/langchain4j.md for why the sample builds it itself).
 */
@ApplicationScoped
public class AssistantProducer {

    @Produces
    @ApplicationScoped
    TravelAssistant assistant(@Named("mixed") ChatModel mixed, WeatherTool weather) {
        return AiServices.builder(TravelAssistant.class).chatModel(mixed).tools(weather).build();
    }
}
