package dev.baton.impl.concurrent;

import java.util.concurrent.Flow;

/** Small {@link Flow.Publisher}s that every layer needs. */
public final class Publishers {

    private Publishers() {
    }

    /** A publisher that fails its subscriber at once, as the Reactive Streams rules require: onSubscribe first. */
    public static <T> Flow.Publisher<T> failed(Throwable error) {
        return subscriber -> {
            subscriber.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                }

                @Override
                public void cancel() {
                }
            });
            subscriber.onError(error);
        };
    }
}
