package dev.baton.impl.cdi;

import dev.baton.FailoverChatService;
import dev.baton.FailoverEmbeddingService;
import dev.baton.Route;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.InjectionPoint;
import jakarta.inject.Inject;

/**
 * Produces the {@link FailoverChatService} and the {@link FailoverEmbeddingService} for each injection point: {@code @Inject} and
 * {@code @Inject @Route("name")}, each with the {@code @FailoverPolicy} found there. Bindings are
 * read and checked at deployment by {@link BatonExtension}; producing one is a map lookup.
 */
@ApplicationScoped
public class ChatServiceProducer {

    @Inject
    BatonChatService service;

    @Inject
    BatonExtension extension;

    @Produces
    @Default
    @Dependent
    FailoverChatService unbound(InjectionPoint injectionPoint) {
        return bind(injectionPoint);
    }

    @Produces
    @Route("")
    @Dependent
    FailoverChatService routed(InjectionPoint injectionPoint) {
        return bind(injectionPoint);
    }

    @Produces
    @Default
    @Dependent
    FailoverEmbeddingService unboundEmbeddings(InjectionPoint injectionPoint) {
        return bind(injectionPoint);
    }

    @Produces
    @Route("")
    @Dependent
    FailoverEmbeddingService routedEmbeddings(InjectionPoint injectionPoint) {
        return bind(injectionPoint);
    }

    private BoundChatService bind(InjectionPoint injectionPoint) {
        BatonExtension.Binding binding = extension.bindingFor(injectionPoint);
        return new BoundChatService(service, binding.route(), binding.policy(), binding.site());
    }
}
