package dev.baton.sample;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The assistant's tool. A demo: every city has the same winter weather, and each call is remembered. */
@ApplicationScoped
public class WeatherTool {

    private final List<String> asked = new CopyOnWriteArrayList<>();

    // The parameter's name is given: LangChain4j reads it from the class file only when compiled with -parameters.
    @Tool("The current weather in a city")
    public String weather(@P(name = "city", value = "the city's name") String city) {
        asked.add(city);
        return "-3 C and snowing";
    }

    /** The cities the tool was asked about, oldest first. */
    public List<String> asked() {
        return List.copyOf(asked);
    }
}
