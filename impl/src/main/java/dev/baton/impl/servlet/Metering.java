package dev.baton.impl.servlet;

import dev.baton.ChatChunk;
import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.wire.OpenAiShape;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.time.Instant;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * Charges a named key with a budget the estimated cost of what served it, to the period the request was admitted
 * in. A non-streaming answer carries its cost; a stream's is only known from its usage chunk, so Baton asks for that
 * chunk when the caller did not, charges it, and keeps it from the caller. Requests of other callers pass untouched.
 */
final class Metering implements GatewayStep {

    private final KeyBudgets budgets;

    Metering(KeyBudgets budgets) {
        this.budgets = budgets;
    }

    @Override
    public Reply handle(GatewayCall call, Next next) {
        NamedKey key = call.key();
        if (key == null || key.budget() == null) {
            return next.proceed(call);
        }
        Instant admittedAt = budgets.now();
        ChatRequest request = call.request();
        if (request.stream()) {
            boolean hideUsage = !asksForUsage(request);
            Reply reply = next.proceed(hideUsage ? call.withRequest(withUsage(request)) : call);
            return reply instanceof Reply.Streamed streamed
                    ? new Reply.Streamed(s -> streamed.chunks().subscribe(new Charging(s, key, admittedAt, hideUsage)))
                    : reply;
        }
        Reply reply = next.proceed(call);
        if (!(reply instanceof Reply.Completed completed)) {
            return reply;
        }
        // Charged before the answer is written, so a caller's next request already meets the spend.
        CompletableFuture<ChatResponse> source = completed.response();
        CompletableFuture<ChatResponse> charged = source.whenComplete((ok, error) -> {
            if (ok != null && ok.cost() != null) {
                budgets.charge(key, ok.cost().amount(), admittedAt);
            }
        });
        charged.whenComplete((ok, error) -> {
            if (error instanceof CancellationException) {
                source.cancel(true); // the caller went away: stop the attempt in flight
            }
        });
        return new Reply.Completed(charged);
    }

    /** Whether the caller asked for the usage chunk at the end of its stream. */
    static boolean asksForUsage(ChatRequest request) {
        return request.body().get("stream_options") instanceof JsonObject options
                && options.get("include_usage") == JsonValue.TRUE;
    }

    /** The request with the usage chunk asked for. */
    static ChatRequest withUsage(ChatRequest request) {
        var options = request.body().get("stream_options") instanceof JsonObject o ? Json.object(o) : Json.object();
        return request.withBody(Json.object(request.body()).add("stream_options", options.add("include_usage", true))
                .build());
    }

    /** Charges the cost Baton put into a stream's usage chunk, and drops that chunk when the caller did not ask. */
    private final class Charging implements Flow.Subscriber<ChatChunk> {

        private final Flow.Subscriber<? super ChatChunk> downstream;
        private final NamedKey key;
        private final Instant admittedAt;
        private final boolean hideUsage;
        private volatile Flow.Subscription subscription;

        Charging(Flow.Subscriber<? super ChatChunk> downstream, NamedKey key, Instant admittedAt, boolean hideUsage) {
            this.downstream = downstream;
            this.key = key;
            this.admittedAt = admittedAt;
            this.hideUsage = hideUsage;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            downstream.onSubscribe(s);
        }

        @Override
        public void onNext(ChatChunk chunk) {
            JsonObject usage = OpenAiShape.usage(chunk.body());
            if (usage != null) {
                if (usage.get("cost") instanceof JsonNumber amount) {
                    budgets.charge(key, amount.bigDecimalValue(), admittedAt);
                }
                if (hideUsage && chunk.body().get("choices") instanceof JsonArray choices && choices.isEmpty()) {
                    subscription.request(1); // as if written: the caller takes the next chunk
                    return;
                }
            }
            downstream.onNext(chunk);
        }

        @Override
        public void onError(Throwable error) {
            downstream.onError(error);
        }

        @Override
        public void onComplete() {
            downstream.onComplete();
        }
    }
}
