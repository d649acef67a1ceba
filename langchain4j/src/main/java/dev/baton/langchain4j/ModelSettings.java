package dev.baton.langchain4j;

import dev.baton.FailoverChatService;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.request.DefaultChatRequestParameters;

import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** What both models are built from: the service, its route, default parameters, listeners and capabilities. */
record ModelSettings(FailoverChatService service, String route, ChatRequestParameters defaults,
                     List<ChatModelListener> listeners, Set<Capability> capabilities) {

    ModelSettings {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(route, "route");
        listeners = List.copyOf(listeners);
        capabilities = capabilities.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(capabilities));
    }

    /** The builder both models' builders extend; {@code B} is the concrete builder, for chaining. */
    abstract static class Builder<B extends Builder<B>> {
        private final FailoverChatService service;
        private final String route;
        private ChatRequestParameters defaults = DefaultChatRequestParameters.EMPTY;
        private List<ChatModelListener> listeners = List.of();
        private Set<Capability> capabilities = Set.of();

        Builder(FailoverChatService service, String route) {
            this.service = Objects.requireNonNull(service, "service");
            this.route = Objects.requireNonNull(route, "route");
        }

        /** Parameters every request starts from (temperature, max tokens, tools, ...); a request's own win. */
        public B defaultRequestParameters(ChatRequestParameters parameters) {
            this.defaults = Objects.requireNonNull(parameters, "parameters");
            return self();
        }

        public B listeners(List<ChatModelListener> listeners) {
            this.listeners = List.copyOf(listeners);
            return self();
        }

        /**
         * What the model declares it supports. Declare {@link Capability#RESPONSE_FORMAT_JSON_SCHEMA}
         * only for a route whose every target honours {@code json_schema}: AI services then send a
         * schema for structured return types, which Anthropic targets refuse (docs/providers.md).
         */
        public B supportedCapabilities(Set<Capability> capabilities) {
            this.capabilities = Set.copyOf(capabilities);
            return self();
        }

        ModelSettings settings() {
            return new ModelSettings(service, route, defaults, listeners, capabilities);
        }

        @SuppressWarnings("unchecked")
        private B self() {
            return (B) this;
        }
    }
}
