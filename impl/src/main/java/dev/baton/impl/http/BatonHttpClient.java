package dev.baton.impl.http;

import dev.baton.impl.concurrent.Scheduler;
import dev.baton.impl.concurrent.Threads;
import dev.baton.spi.ProviderTransport.Request;
import dev.baton.spi.ProviderTransport.ResponseHeaders;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * Baton's HTTP client, on Netty: one event loop per CPU, a pool of keep-alive connections per scheme, host and port,
 * TLS through the JDK (its default trust store and protocols, host names verified). HTTP/1.1 only. It never follows
 * redirects (one could carry a key to another host) and never retries on its own (the engine decides what is tried
 * again, and where), but for one case: a request on a pooled connection the provider closed while it was idle goes
 * once more, on a new connection. Threads are started once, here: no request starts one. Headers timeouts run on the
 * engine's scheduler, not here.
 *
 * <p>A response reaches its {@link ResponseReader} on the connection's event loop. Flow control reaches the socket:
 * once a reader's {@linkplain ResponseReader.Window window} is spent, the connection stops reading until the reader
 * grants more. Thread-safe; {@link #close()} stops the threads.
 */
public final class BatonHttpClient implements AutoCloseable {

    /** What Baton's requests say they come from, unless the adapter says otherwise. */
    static final String USER_AGENT = "Baton";
    /**
     * HTTP/1.1 carries one exchange per connection and a stream holds its connection to the end, so the pool is as
     * large as the open streams Baton is meant to carry; its own limits ({@code max-concurrent}) come first.
     */
    static final int MAX_CONNECTIONS = 10_000;
    /** The body bytes a reader is handed before the connection waits for it to grant more. */
    static final int INITIAL_WINDOW = 65_536;

    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private final SslContext tls;
    private final Scheduler scheduler;
    /** Idle keep-alive connections by destination, most recently used first (the warmest). */
    private final Map<Destination, Deque<Channel>> idle = new ConcurrentHashMap<>();
    private final AtomicInteger open = new AtomicInteger();

    private BatonHttpClient(EventLoopGroup group, Bootstrap bootstrap, SslContext tls, Scheduler scheduler) {
        this.group = group;
        this.bootstrap = bootstrap;
        this.tls = tls;
        this.scheduler = scheduler;
    }

    /**
     * A started client whose connection attempts give up after {@code connectTimeout}; its I/O threads come from
     * {@code threads}, and its callers' headers timeouts run on {@code scheduler} (the engine's).
     */
    public static BatonHttpClient start(Duration connectTimeout, ThreadFactory threads, Scheduler scheduler) {
        return start(connectTimeout, threads, scheduler, null);
    }

    /** A client that trusts what {@code trust} trusts; {@code null} for the JDK's default trust store. */
    static BatonHttpClient start(Duration connectTimeout, ThreadFactory threads, Scheduler scheduler,
                                 TrustManagerFactory trust) {
        SslContext tls;
        try {
            tls = SslContextBuilder.forClient().sslProvider(SslProvider.JDK).trustManager(trust)
                    .endpointIdentificationAlgorithm("HTTPS").build();
        } catch (SSLException e) {
            throw new IllegalStateException("The JDK's TLS could not be set up for provider calls", e);
        }
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(Runtime.getRuntime().availableProcessors(),
                Threads.named(threads, "baton-http-"), NioIoHandler.newFactory());
        Bootstrap bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS,
                        (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()));
        return new BatonHttpClient(group, bootstrap, tls, scheduler);
    }

    /** A request on its way or being answered. */
    interface InFlight {

        /** Ends the exchange and closes its connection; its reader hears nothing more. Idempotent. */
        void abort();
    }

    /** Sends {@code call}; {@code reader} takes the response on an I/O thread. */
    InFlight send(Request call, ResponseReader reader) {
        Exchange exchange = new Exchange(call, Destination.of(call.uri()), reader);
        exchange.begin(true);
        return exchange;
    }

    /** Runs {@code task} on the scheduler after {@code delay}. */
    Scheduler.Scheduled schedule(Runnable task, Duration delay) {
        return scheduler.schedule(delay, task);
    }

    /** Stops the I/O threads (within seconds); exchanges still open are cut. */
    @Override
    public void close() {
        idle.values().forEach(connections -> connections.forEach(Channel::close));
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(6, TimeUnit.SECONDS);
    }

    /** Where a connection goes: connections are pooled and reused by this. */
    private record Destination(boolean tls, String host, int port) {

        static Destination of(URI uri) {
            boolean tls = "https".equalsIgnoreCase(uri.getScheme());
            String host = uri.getHost();
            if (host.startsWith("[")) {
                host = host.substring(1, host.length() - 1); // an IPv6 literal
            }
            return new Destination(tls, host, uri.getPort() >= 0 ? uri.getPort() : tls ? 443 : 80);
        }

        String hostHeader() {
            String name = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
            return port == (tls ? 443 : 80) ? name : name + ":" + port;
        }
    }

    /** A pooled connection still open, or {@code null}. */
    private Channel pooled(Destination destination) {
        Deque<Channel> connections = idle.get(destination);
        if (connections != null) {
            for (Channel ch = connections.pollFirst(); ch != null; ch = connections.pollFirst()) {
                if (ch.isActive()) {
                    return ch;
                }
            }
        }
        return null;
    }

    /** Gives a connection whose answer ended back to the pool, or closes it. */
    private void release(Channel ch, Destination destination, boolean keepAlive) {
        if (keepAlive && ch.isActive()) {
            idle.computeIfAbsent(destination, d -> new ConcurrentLinkedDeque<>()).offerFirst(ch);
        } else {
            ch.close();
        }
    }

    /** One request and its answer; aborting it closes its connection. */
    private final class Exchange implements InFlight, ResponseReader.Window {

        private final Request call;
        private final Destination destination;
        private final ResponseReader reader;
        private final AtomicBoolean ended = new AtomicBoolean();
        /** Bytes the reader may still be handed before the connection stops reading. */
        private final AtomicLong window = new AtomicLong(INITIAL_WINDOW);
        private volatile Channel channel;
        /** The connection came from the pool: one the provider closed meanwhile is replaced once. */
        private volatile boolean reused;
        /** On the event loop only: the status arrived. */
        private boolean responded;
        private boolean keepAlive;

        Exchange(Request call, Destination destination, ResponseReader reader) {
            this.call = call;
            this.destination = destination;
            this.reader = reader;
        }

        /** Sends on a pooled connection when {@code mayReuse} and one is idle, else on a new one. */
        void begin(boolean mayReuse) {
            Channel ch = mayReuse ? pooled(destination) : null;
            if (ch != null) {
                write(ch, true);
                return;
            }
            if (open.incrementAndGet() > MAX_CONNECTIONS) {
                open.decrementAndGet();
                failed(new IOException("Baton's " + MAX_CONNECTIONS + " connections to providers are all open"));
                return;
            }
            bootstrap.clone().handler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel c) {
                    c.closeFuture().addListener(f -> {
                        open.decrementAndGet();
                        Deque<Channel> pooled = idle.get(destination);
                        if (pooled != null) {
                            pooled.remove(c); // closed by the provider while idle
                        }
                    });
                    if (destination.tls()) {
                        c.pipeline().addLast(tls.newHandler(c.alloc(), destination.host(), destination.port()));
                    }
                    c.pipeline().addLast(new HttpClientCodec(), new ConnectionReader());
                }
            }).connect(destination.host(), destination.port()).addListener((ChannelFutureListener) f -> {
                if (f.isSuccess()) {
                    write(f.channel(), false);
                } else {
                    failed(f.cause());
                }
            });
        }

        private void write(Channel ch, boolean reused) {
            this.reused = reused;
            channel = ch;
            if (ended.get()) {
                ch.close(); // aborted while the connection was being found
                return;
            }
            ConnectionReader handler = ch.pipeline().get(ConnectionReader.class);
            if (handler == null) { // closed, its handlers gone, since it was taken from the pool
                connectionFailed(ch, new IOException("The provider closed the connection"));
                return;
            }
            handler.exchange = this;
            ch.config().setAutoRead(true);
            ch.writeAndFlush(request()).addListener((ChannelFutureListener) f -> {
                if (!f.isSuccess()) {
                    connectionFailed(ch, f.cause());
                }
            });
        }

        private DefaultFullHttpRequest request() {
            URI uri = call.uri();
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            String target = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
            byte[] body = call.body() == null ? new byte[0] : call.body();
            var request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.valueOf(call.method()), target,
                    Unpooled.wrappedBuffer(body));
            call.headers().forEach(request.headers()::add);
            request.headers().set(HttpHeaderNames.HOST, destination.hostHeader());
            if (!request.headers().contains(HttpHeaderNames.USER_AGENT)) {
                // Some front ends refuse a request that does not say what sent it.
                request.headers().set(HttpHeaderNames.USER_AGENT, USER_AGENT);
            }
            if (body.length > 0 || !"GET".equals(call.method())) {
                request.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
            }
            return request;
        }

        void headers(HttpResponse response) throws IOException {
            responded = true;
            keepAlive = HttpUtil.isKeepAlive(response);
            // The headers outlive the read (an error body is classified once it is whole); they are not pooled.
            ResponseHeaders headers = name -> Optional.ofNullable(response.headers().get(name));
            reader.headers(response.status().code(), headers, this);
        }

        void content(ByteBuf content) throws IOException {
            int bytes = content.readableBytes();
            if (bytes > 0) {
                reader.body(content.nioBuffer());
                if (window.addAndGet(-bytes) <= 0) {
                    channel.config().setAutoRead(false);
                    if (window.get() > 0) {
                        channel.config().setAutoRead(true); // granted meanwhile, by a thread that saw it reading
                    }
                }
            }
        }

        void end() {
            reader.end();
            if (ended.compareAndSet(false, true)) {
                Channel ch = channel;
                leave(ch);
                ch.config().setAutoRead(true); // an idle connection notices its close
                release(ch, destination, keepAlive);
            }
        }

        /**
         * Connection {@code ch} broke. When it came from the pool and nothing was answered on it, the provider had most
         * likely closed it while it was idle: the request goes once more, on a new connection.
         */
        void connectionFailed(Channel ch, Throwable cause) {
            if (ch != channel) {
                return; // a connection this exchange already left
            }
            if (reused && !responded && !ended.get()) {
                leave(ch);
                ch.close();
                begin(false);
            } else {
                failed(cause);
            }
        }

        /** Detaches this exchange from {@code ch}, whose later events are then no longer its. */
        private void leave(Channel ch) {
            ConnectionReader handler = ch.pipeline().get(ConnectionReader.class);
            if (handler != null) {
                handler.exchange = null;
            }
        }

        void failed(Throwable cause) {
            if (ended.compareAndSet(false, true)) {
                Channel ch = channel;
                if (ch != null) {
                    ch.close();
                }
                reader.failed(exception(cause));
            }
        }

        @Override
        public void abort() {
            if (ended.compareAndSet(false, true)) {
                Channel ch = channel;
                if (ch != null) {
                    ch.close();
                }
            }
        }

        @Override
        public void grant(int increment) {
            long now = window.accumulateAndGet(increment, (a, b) -> Math.min(Long.MAX_VALUE / 2, a + b));
            Channel ch = channel;
            // Only when reads are stopped: a setting is an atomic swap, and this runs for each chunk taken. A grant made
            // while the loop is stopping reads is not lost: content() looks at the window again after stopping.
            if (now > 0 && ch != null && !ended.get() && !ch.config().isAutoRead()) {
                ch.config().setAutoRead(true);
            }
        }
    }

    /** Reads one connection's answers, one exchange at a time; a read's bytes form one {@link ReadBurst}. */
    private static final class ConnectionReader extends ChannelInboundHandlerAdapter {

        volatile Exchange exchange;
        private ReadBurst.Read burst;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Exchange current = exchange;
            try {
                if (current == null) {
                    ctx.close(); // bytes nobody asked for: the connection is out of step
                    return;
                }
                if (current.ended.get()) {
                    return; // aborted: the connection is closing
                }
                if (burst == null) {
                    burst = ReadBurst.read();
                }
                if (msg instanceof HttpObject o && o.decoderResult().isFailure()) {
                    current.failed(new IOException("The provider's answer is not HTTP", o.decoderResult().cause()));
                    return;
                }
                if (msg instanceof HttpResponse response) {
                    current.headers(response);
                }
                if (msg instanceof HttpContent content) {
                    current.content(content.content());
                    if (msg instanceof LastHttpContent) {
                        current.end();
                    }
                }
            } catch (Exception | StackOverflowError e) {
                current.failed(e);
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            endBurst();
        }

        /** Runs what the read deferred: the thread's next read, on any connection, starts a burst of its own. */
        private void endBurst() {
            ReadBurst.Read read = burst;
            burst = null;
            if (read != null) {
                read.close();
            }
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            endBurst();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            endBurst();
            Exchange current = exchange;
            if (current != null) {
                current.connectionFailed(ctx.channel(), new IOException("The provider closed the connection"));
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            Exchange current = exchange;
            if (current != null) {
                current.connectionFailed(ctx.channel(), cause);
            } else {
                ctx.close();
            }
        }
    }

    /** What Netty failed with, as the exception {@link Transport} classifies: its decoders wrap TLS failures. */
    private static Exception exception(Throwable cause) {
        Throwable t = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        return t instanceof Exception e ? e : new IOException(t);
    }
}
