package dev.baton.impl.http;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A body subscriber that collects at most {@code limit} bytes and fails with
 * {@link TooLargeException} past it, so an upstream cannot exhaust memory.
 */
public final class BoundedBody implements HttpResponse.BodySubscriber<String> {

    private final long limit;
    private final CompletableFuture<String> result = new CompletableFuture<>();
    private final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    private Flow.Subscription subscription;

    public BoundedBody(long limit) {
        this.limit = limit;
    }

    @Override
    public CompletionStage<String> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        for (ByteBuffer buffer : buffers) {
            if (bytes.size() + (long) buffer.remaining() > limit) {
                subscription.cancel();
                result.completeExceptionally(new TooLargeException(limit));
                return;
            }
            byte[] chunk = new byte[buffer.remaining()];
            buffer.get(chunk);
            bytes.write(chunk, 0, chunk.length);
        }
    }

    @Override
    public void onError(Throwable throwable) {
        result.completeExceptionally(throwable);
    }

    @Override
    public void onComplete() {
        result.complete(bytes.toString(StandardCharsets.UTF_8));
    }

    /** The upstream body was larger than allowed. */
    public static final class TooLargeException extends java.io.IOException {
        public TooLargeException(long limit) {
            super("the provider's response is larger than " + limit + " bytes");
        }
    }
}
