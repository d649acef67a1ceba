package dev.baton.impl.cdi;

import dev.baton.ChatChunk;
import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.FailoverChatService;
import dev.baton.exception.FailoverException;
import dev.baton.impl.boot.BatonRuntime;
import dev.baton.impl.cluster.ClusterSync;
import dev.baton.impl.config.PolicyOverride;
import dev.baton.impl.engine.Call;
import dev.baton.impl.engine.FailoverEngine;
import dev.baton.impl.record.RecordStore;
import dev.baton.impl.servlet.Endpoint;
import dev.baton.impl.stats.ConnectionStats;
import dev.baton.record.RequestRecord;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.ThreadFactory;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The one engine of the application, a thin bean around the {@link BatonRuntime} it starts when created and closes
 * when the application stops. Applications inject {@link FailoverChatService}, which
 * {@link ChatServiceProducer} binds to the injection point's route and policy; this bean's own
 * methods apply the configured policies only (the endpoint uses them).
 */
@ApplicationScoped
@Typed(BatonChatService.class)
public class BatonChatService implements FailoverChatService {

    /** Jakarta Concurrency's default thread factory, bound by both servers when their concurrency feature is on. */
    static final String DEFAULT_THREAD_FACTORY = "java:comp/DefaultManagedThreadFactory";
    private static final System.Logger LOG = System.getLogger(BatonChatService.class.getName());

    @Inject
    BatonExtension extension;

    private BatonRuntime runtime;
    private TransactionCheck transactions;

    @PostConstruct
    void start() {
        runtime = BatonRuntime.start(new BatonRuntime.Setup(extension.config(), extension.providers(),
                extension.cluster(), extension.endpoint(), containerThreads()));
        transactions = TransactionCheck.lookUp();
    }

    /** Created when the application starts, so a DataSource that cannot be found fails the start, not a request. */
    void eager(@Observes @Initialized(ApplicationScoped.class) Object started) {
        runtime.engine().health(); // touching the bean creates it
    }

    /**
     * The server's default {@code ManagedThreadFactory} (Jakarta Concurrency) when it has one, so Baton's threads are
     * the server's to see and manage; else plain threads. Baton never submits tasks to a managed executor: a response
     * is handled on the I/O thread that read it, and nothing in the path blocks.
     */
    private static ThreadFactory containerThreads() {
        try {
            if (new InitialContext().lookup(DEFAULT_THREAD_FACTORY) instanceof ThreadFactory managed) {
                LOG.log(System.Logger.Level.DEBUG, "Baton's threads come from " + DEFAULT_THREAD_FACTORY);
                return managed;
            }
        } catch (NamingException | RuntimeException notThere) {
            // no Jakarta Concurrency in this server (or outside one): plain threads
        }
        LOG.log(System.Logger.Level.INFO, "No ManagedThreadFactory at " + DEFAULT_THREAD_FACTORY
                + "; Baton starts its own daemon threads");
        return Thread::new;
    }

    @PreDestroy
    void stop() {
        runtime.close();
    }

    /**
     * What the endpoint's servlets are injected with. Only they ask for it, and they exist only when the endpoint
     * is enabled, so it is never {@code null} where it is injected.
     */
    @Produces
    @Dependent
    Endpoint endpoint() {
        return runtime.endpoint().orElse(null);
    }

    @Override
    public ChatResponse complete(ChatRequest request) {
        return complete(request, PolicyOverride.NONE);
    }

    ChatResponse complete(ChatRequest request, PolicyOverride policy) {
        return await(runtime.engine().complete(Call.of(request).withPolicy(policy)), request.model());
    }

    /** Blocks for {@code answer}; interrupted, it cancels the attempt in flight too. */
    static <T> T await(CompletableFuture<T> answer, String model) {
        try {
            return answer.get();
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        } catch (InterruptedException e) {
            answer.cancel(true); // e.g. a MicroProfile @Timeout around the call: stop the attempt in flight too
            Thread.currentThread().interrupt();
            throw new CompletionException("interrupted while waiting for " + model, e);
        }
    }

    @Override
    public CompletionStage<ChatResponse> completeAsync(ChatRequest request) {
        return runtime.engine().complete(Call.of(request));
    }

    @Override
    public Flow.Publisher<ChatChunk> stream(ChatRequest request) {
        return runtime.engine().stream(Call.of(request));
    }

    @Override
    public Optional<RequestRecord> findRecord(String requestId) {
        return runtime.engine().findRecord(requestId);
    }

    /** Warns about blocking calls made inside a transaction. */
    TransactionCheck transactions() {
        return transactions;
    }

    /** Where records go: in memory, or through the JDBC store. */
    public RecordStore recordStore() {
        return runtime.recordStore();
    }

    /** The engine, for the endpoint and operators' views. */
    public FailoverEngine engine() {
        return runtime.engine();
    }

    /** The cluster's shared view, or empty on a node alone. */
    public Optional<ClusterSync> cluster() {
        return runtime.cluster();
    }

    /** Every connection's recent counts, for operators' views. */
    public ConnectionStats stats() {
        return runtime.stats();
    }

    private static RuntimeException rethrow(Throwable cause) {
        if (cause instanceof FailoverException e) {
            return e;
        }
        return cause instanceof RuntimeException e ? e : new CompletionException(cause);
    }
}
