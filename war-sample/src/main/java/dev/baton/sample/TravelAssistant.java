package dev.baton.sample;

import dev.langchain4j.service.Result;
import dev.langchain4j.service.SystemMessage;

/**
 * A LangChain4j AI service on the route {@code mixed} (an OpenAI account, then an Anthropic one), with
 * one tool, {@link WeatherTool}. Built by {@link AssistantProducer}; inject it with
 * {@code @Inject TravelAssistant assistant}.
 */
public interface TravelAssistant {

    /** The answer, with the tools it called and, in {@code finalResponse().metadata()}, who served it. */
    @SystemMessage("You help travellers. Use the weather tool for any question about the weather.")
    Result<String> ask(String question);
}
