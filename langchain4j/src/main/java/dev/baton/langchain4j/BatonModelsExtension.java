package dev.baton.langchain4j;

import dev.baton.FailoverChatService;
import dev.baton.Route;
import dev.baton.exception.FailoverDefinitionException;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.literal.NamedLiteral;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.ConfigProvider;

import java.util.Set;
import java.util.function.Function;

/**
 * Makes each Baton route a named {@link ChatModel} and a named {@link StreamingChatModel} bean,
 * which LangChain4J-CDI's {@code @RegisterAIService(chatModelName = ...)} and
 * {@code streamingChatModelName} select, and which an application can inject with
 * {@code @Inject @Named("support") ChatModel}. Names follow {@code baton.langchain4j.chat-model-name}
 * (default {@code {route}}) and {@code baton.langchain4j.streaming-chat-model-name} (default
 * {@code {route}-streaming}).
 *
 * <p>The beans are singletons over the {@code @Route} {@link FailoverChatService}, looked up on
 * first use. They carry {@code @Named}, {@link BatonModel} and {@code @Any}, not {@code @Default},
 * so they never make an application's own unqualified {@code ChatModel} ambiguous.
 */
public class BatonModelsExtension implements Extension {

    void register(@Observes AfterBeanDiscovery event, BeanManager beans) {
        NamedModelSettings settings;
        try {
            settings = NamedModelSettings.read(ConfigProvider.getConfig());
        } catch (FailoverDefinitionException e) {
            event.addDefinitionError(e);
            return;
        }
        for (NamedModelSettings.NamedRoute named : settings.routes()) {
            String route = named.route();
            Set<Capability> capabilities = named.jsonSchema() ? Set.of(Capability.RESPONSE_FORMAT_JSON_SCHEMA) : Set.of();
            add(event, beans, route, named.chatModelName(), BatonChatModel.class, ChatModel.class, service ->
                    BatonChatModel.builder(service, route).supportedCapabilities(capabilities).build());
            add(event, beans, route, named.streamingChatModelName(), BatonStreamingChatModel.class,
                    StreamingChatModel.class,
                    service -> BatonStreamingChatModel.builder(service, route).supportedCapabilities(capabilities).build());
        }
    }

    private static <T> void add(AfterBeanDiscovery event, BeanManager beans, String route, String name, Class<T> type,
                                Class<? super T> api, Function<FailoverChatService, T> create) {
        event.addBean()
                .beanClass(type)
                .types(type, api, Object.class)
                .qualifiers(NamedLiteral.of(name), BatonModel.Literal.INSTANCE, Any.Literal.INSTANCE)
                .scope(Singleton.class)
                .name(name)
                // The route's service as the application would inject it: @Inject @Route(route) FailoverChatService.
                .createWith(context -> create.apply(
                        beans.createInstance().select(FailoverChatService.class, Route.Literal.of(route)).get()));
    }
}
