package dev.baton.impl.contract;

import jakarta.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/** For adapter tests: every chunk of a stream, taken as fast as it comes. */
public final class Collect {

    private Collect() {
    }

    /** The chunks of {@code stream} once it completes; it fails with the stream's error. */
    public static CompletableFuture<List<JsonObject>> chunks(Flow.Publisher<JsonObject> stream) {
        CompletableFuture<List<JsonObject>> done = new CompletableFuture<>();
        List<JsonObject> chunks = new ArrayList<>();
        stream.subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(JsonObject item) {
                chunks.add(item);
            }

            @Override
            public void onError(Throwable t) {
                done.completeExceptionally(t);
            }

            @Override
            public void onComplete() {
                done.complete(chunks);
            }
        });
        return done;
    }
}
