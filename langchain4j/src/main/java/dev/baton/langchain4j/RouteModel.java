package dev.baton.langchain4j;

import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.request.ChatRequestParameters;

import java.util.List;
import java.util.Set;

/** What the blocking and the streaming model share: one route and its settings, answered to LangChain4j alike. */
abstract class RouteModel {

    final ModelSettings settings;

    RouteModel(ModelSettings settings) {
        this.settings = settings;
    }

    /** The route every request goes to. */
    public String route() {
        return settings.route();
    }

    public ChatRequestParameters defaultRequestParameters() {
        return settings.defaults();
    }

    public List<ChatModelListener> listeners() {
        return settings.listeners();
    }

    public ModelProvider provider() {
        return ModelProvider.OTHER;
    }

    public Set<Capability> supportedCapabilities() {
        return settings.capabilities();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[route=" + settings.route() + "]";
    }
}
