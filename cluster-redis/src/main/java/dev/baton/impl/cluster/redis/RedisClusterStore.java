package dev.baton.impl.cluster.redis;

import dev.baton.impl.cluster.ClusterSettings;
import dev.baton.impl.cluster.ClusterStore;
import dev.baton.impl.concurrent.Scheduler;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;

import java.lang.System.Logger.Level;
import java.math.BigDecimal;
import java.net.SocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The cluster store on Redis, through Lettuce: one connection for commands and one subscribed to
 * the channel of changes, on one small Netty event loop. Shared states live in one hash
 * ({@code <prefix>states}, a field per connection) and each change is published on
 * {@code <prefix>changes}; leases and idempotency claims are plain keys with a TTL ({@code SET NX PX}).
 *
 * <p>Never in the way of a request: commands are rejected at once while disconnected and time out
 * after the configured timeout; Lettuce reconnects by itself every {@link #RECONNECT_EVERY}, and a
 * heartbeat notices a Redis that stopped answering without closing its connections.
 */
public final class RedisClusterStore implements ClusterStore {

    static final Duration RECONNECT_EVERY = Duration.ofMillis(500);
    static final Duration HEARTBEAT = Duration.ofMillis(500);
    /**
     * The least a budget's hold or settlement (the one kind of script this store runs) waits for Redis: one that times
     * out is held in the node's memory instead, where a burst can spend a budget once per node, so a busy Redis is
     * worth waiting for longer than the other commands' timeout. A Redis that stopped answering is noticed by the
     * heartbeat, after which nothing waits at all.
     */
    public static final Duration MIN_SCRIPT_TIMEOUT = Duration.ofSeconds(1);
    private static final System.Logger LOG = System.getLogger("dev.baton.cluster");

    private final ClusterSettings settings;
    private final Scheduler scheduler;
    private final ClientResources resources;
    private final RedisClient client;
    private final RedisURI uri;
    private final String statesKey;
    private final String channel;

    private volatile StatefulRedisConnection<String, String> commands;
    private volatile StatefulRedisPubSubConnection<String, String> subscription;
    private volatile boolean answering;
    private volatile boolean connected;
    private volatile boolean closed;
    private Consumer<Boolean> connectivity = up -> { };

    public RedisClusterStore(ClusterSettings settings, ThreadFactory threads, Scheduler scheduler) {
        this.settings = settings;
        this.scheduler = scheduler;
        this.resources = ClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(2) // Lettuce's minimum
                .threadFactoryProvider(pool -> threads).reconnectDelay(Delay.constant(RECONNECT_EVERY)).build();
        this.uri = RedisURI.create(settings.url());
        uri.setTimeout(settings.timeout());
        this.client = RedisClient.create(resources, uri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(SocketOptions.builder().connectTimeout(settings.connectTimeout()).build())
                .timeoutOptions(TimeoutOptions.builder().timeoutCommands().timeoutSource(new TimeoutOptions.TimeoutSource() {
                    @Override
                    public long getTimeout(RedisCommand<?, ?, ?> command) {
                        return (command.getType() == CommandType.EVAL ? scriptTimeout() : settings.timeout()).toNanos();
                    }

                    @Override
                    public TimeUnit getTimeUnit() {
                        return TimeUnit.NANOSECONDS;
                    }
                }).build())
                .build());
        this.statesKey = settings.keyPrefix() + "states";
        this.channel = settings.keyPrefix() + "changes";
    }

    @Override
    public void start(Consumer<String> messages, Consumer<Boolean> connectivity) {
        this.connectivity = connectivity;
        client.addListener(new RedisConnectionStateListener() {
            @Override
            public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress address) {
                answering = true;
                check();
            }

            @Override
            public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
                check();
            }
        });
        connect(messages);
        heartbeat();
    }

    /** Opens both connections; retried until it works. Afterwards Lettuce reconnects them by itself. */
    private void connect(Consumer<String> messages) {
        if (closed) {
            return;
        }
        CompletableFuture<StatefulRedisConnection<String, String>> c = commands != null
                ? CompletableFuture.completedFuture(commands)
                : client.connectAsync(StringCodec.UTF8, uri).toCompletableFuture();
        c.thenCompose(conn -> {
            commands = conn;
            if (subscription != null) {
                return CompletableFuture.completedFuture(subscription);
            }
            return client.connectPubSubAsync(StringCodec.UTF8, uri).toCompletableFuture().thenCompose(sub -> {
                sub.addListener(new RedisPubSubAdapter<>() {
                    @Override
                    public void message(String from, String message) {
                        messages.accept(message);
                    }
                });
                return sub.async().subscribe(channel).toCompletableFuture().thenApply(ok -> sub);
            });
        }).whenComplete((sub, error) -> {
            if (error == null) {
                subscription = sub;
                answering = true;
                check();
            } else if (!closed) {
                LOG.log(Level.DEBUG, "Redis at {0} not reached: {1}", describe(), error.toString());
                scheduler.schedule(RECONNECT_EVERY, () -> connect(messages));
            }
        });
    }

    /**
     * Asks Redis for a PING every {@link #HEARTBEAT}: a Redis that does not answer one within a heartbeat counts as
     * down (frozen, or a network that drops packets without closing connections). Longer than a command's timeout,
     * so that one slow answer on a busy host is not an outage; commands are bounded on their own.
     */
    private void heartbeat() {
        if (closed) {
            return;
        }
        StatefulRedisConnection<String, String> c = commands;
        if (c == null) {
            scheduler.schedule(HEARTBEAT, this::heartbeat);
            return;
        }
        c.async().ping().toCompletableFuture().copy().orTimeout(HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((pong, error) -> {
                    answering = error == null;
                    check();
                    scheduler.schedule(HEARTBEAT, this::heartbeat);
                });
    }

    /** Recomputes {@link #connected()} and reports a change. */
    private synchronized void check() {
        if (closed) {
            return; // closing is not an outage
        }
        StatefulRedisConnection<String, String> c = commands;
        StatefulRedisPubSubConnection<String, String> s = subscription;
        boolean now = answering && c != null && c.isOpen() && s != null && s.isOpen();
        if (now != connected) {
            connected = now;
            connectivity.accept(now);
        }
    }

    @Override
    public boolean connected() {
        return connected;
    }

    @Override
    public CompletableFuture<Void> share(String connection, String message) {
        RedisAsyncCommands<String, String> redis = redis();
        if (redis == null) {
            return notConnected();
        }
        // Both on one connection, so in this order: a node that re-syncs from the hash never misses a published change.
        CompletableFuture<Boolean> stored = bounded(redis.hset(statesKey, connection, message));
        CompletableFuture<Long> published = bounded(redis.publish(channel, message));
        return stored.thenCombine(published, (a, b) -> null);
    }

    @Override
    public CompletableFuture<Map<String, String>> shared() {
        RedisAsyncCommands<String, String> redis = redis();
        return redis == null ? notConnected() : bounded(redis.hgetall(statesKey));
    }

    @Override
    public CompletableFuture<String> setIfAbsent(String key, String value, Duration ttl) {
        RedisAsyncCommands<String, String> redis = redis();
        if (redis == null) {
            return notConnected();
        }
        // SET NX GET (Redis 7): the value already there, or null when this call set it, in one round trip.
        return bounded(redis.setGet(settings.keyPrefix() + key, value, SetArgs.Builder.nx().px(ttl.toMillis())));
    }

    @Override
    public CompletableFuture<String> get(String key) {
        RedisAsyncCommands<String, String> redis = redis();
        return redis == null ? notConnected() : bounded(redis.get(settings.keyPrefix() + key));
    }

    @Override
    public CompletableFuture<Void> put(String key, String value, Duration ttl) {
        RedisAsyncCommands<String, String> redis = redis();
        return redis == null ? notConnected()
                : bounded(redis.set(settings.keyPrefix() + key, value, SetArgs.Builder.px(ttl.toMillis())))
                        .thenApply(ok -> null);
    }

    @Override
    public CompletableFuture<Void> delete(String key) {
        RedisAsyncCommands<String, String> redis = redis();
        return redis == null ? notConnected()
                : bounded(redis.del(settings.keyPrefix() + key)).thenApply(n -> null);
    }

    /**
     * KEYS: the tallies. ARGV: id, amount, now (ms), until (ms), then each tally's limit, then each tally's TTL (ms).
     * A tally is a hash: {@code spent}, and a field {@code h:<id>} = {@code "<amount> <until>"} per hold. Answers
     * {@code {0, committed...}} when held, else {@code {index, committed...}} up to the first tally the amount did not
     * fit in (numbers as strings: Lua would truncate them to integers). Sums are
     * doubles: an amount fits when it passes the limit by at most 1e-9, so that a budget takes exactly the holds that
     * add up to it.
     */
    private static final String HOLD = """
            local n = #KEYS
            local amount = tonumber(ARGV[2])
            local now = tonumber(ARGV[3])
            local answer = {0}
            for i = 1, n do
              local committed = 0
              local fields = redis.call('HGETALL', KEYS[i])
              for j = 1, #fields, 2 do
                if fields[j] == 'spent' then
                  committed = committed + tonumber(fields[j + 1])
                else
                  local held, untilMs = string.match(fields[j + 1], '(%S+) (%S+)')
                  if tonumber(untilMs) < now then
                    redis.call('HDEL', KEYS[i], fields[j])
                  else
                    committed = committed + tonumber(held)
                  end
                end
              end
              -- Lua adds in doubles, where 100 holds of 0.01 come to 1.0000000000000007: within a billionth is within
              answer[i + 1] = tostring(committed)
              if committed + amount > tonumber(ARGV[4 + i]) + 1e-9 then
                answer[1] = i
                return answer
              end
            end
            for i = 1, n do
              redis.call('HSET', KEYS[i], 'h:' .. ARGV[1], ARGV[2] .. ' ' .. ARGV[4])
              redis.call('PEXPIRE', KEYS[i], ARGV[4 + n + i])
            end
            return answer
            """;

    /** KEYS: the tallies. ARGV: id, cost, then each tally's TTL (ms). */
    private static final String SETTLE = """
            for i = 1, #KEYS do
              redis.call('HDEL', KEYS[i], 'h:' .. ARGV[1])
              if tonumber(ARGV[2]) > 0 then
                redis.call('HINCRBYFLOAT', KEYS[i], 'spent', ARGV[2])
              end
              redis.call('PEXPIRE', KEYS[i], ARGV[2 + i])
            end
            return 0
            """;

    @Override
    public CompletableFuture<Counted> hold(List<Tally> tallies, String id, BigDecimal amount, Instant now,
                                           Instant until) {
        RedisAsyncCommands<String, String> redis = redis();
        if (redis == null) {
            return notConnected();
        }
        List<String> args = new ArrayList<>(List.of(id, amount.toPlainString(), Long.toString(now.toEpochMilli()),
                Long.toString(until.toEpochMilli())));
        tallies.forEach(t -> args.add(t.limit().toPlainString()));
        tallies.forEach(t -> args.add(Long.toString(t.ttl().toMillis())));
        CompletableFuture<List<Object>> answer = bounded(redis.eval(HOLD, ScriptOutputType.MULTI, keys(tallies),
                args.toArray(String[]::new)), scriptTimeout());
        return answer.thenApply(reply -> new Counted(((Long) reply.get(0)).intValue() - 1,
                reply.stream().skip(1).map(c -> new BigDecimal(c.toString())).toList()));
    }

    @Override
    public CompletableFuture<Void> settle(List<Tally> tallies, String id, BigDecimal cost) {
        // Sent whenever the connection is open, even while the heartbeat counts Redis as down: a hold whose script
        // timed out on a frozen Redis runs once it thaws, and this settlement, behind it on the same connection,
        // must then end it rather than leave it held for a lease.
        StatefulRedisConnection<String, String> c = commands;
        if (c == null || !c.isOpen()) {
            return notConnected();
        }
        RedisAsyncCommands<String, String> redis = c.async();
        List<String> args = new ArrayList<>(List.of(id, cost.toPlainString()));
        tallies.forEach(t -> args.add(Long.toString(t.ttl().toMillis())));
        CompletableFuture<Long> answer = bounded(redis.eval(SETTLE, ScriptOutputType.INTEGER, keys(tallies),
                args.toArray(String[]::new)), scriptTimeout());
        return answer.thenApply(ok -> null);
    }

    private String[] keys(List<Tally> tallies) {
        return tallies.stream().map(t -> settings.keyPrefix() + t.key()).toArray(String[]::new);
    }

    /**
     * A command's answer, failed with a timeout once {@code timeout} has passed. Lettuce's own command timeout runs on
     * a wheel of 100 ms ticks; this one runs on the JDK's delay thread, to the millisecond.
     */
    private <T> CompletableFuture<T> bounded(CompletionStage<T> command) {
        return bounded(command, settings.timeout());
    }

    private static <T> CompletableFuture<T> bounded(CompletionStage<T> command, Duration timeout) {
        return command.toCompletableFuture().copy().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private Duration scriptTimeout() {
        return settings.timeout().compareTo(MIN_SCRIPT_TIMEOUT) > 0 ? settings.timeout() : MIN_SCRIPT_TIMEOUT;
    }

    private RedisAsyncCommands<String, String> redis() {
        StatefulRedisConnection<String, String> c = commands;
        return c == null || !connected ? null : c.async();
    }

    private static <T> CompletableFuture<T> notConnected() {
        return CompletableFuture.failedFuture(new IllegalStateException("not connected to Redis"));
    }

    @Override
    public String describe() {
        return "redis " + settings.displayUrl();
    }

    @Override
    public void close() {
        closed = true;
        try {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            resources.shutdown(0, 2, TimeUnit.SECONDS);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "closing the Redis client: {0}", e.toString());
        }
    }
}
