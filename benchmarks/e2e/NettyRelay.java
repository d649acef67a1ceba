import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AttributeKey;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;

/**
 * {@link Relay} with Netty 4.2 in place of Apache HttpClient 5 for the upstream call, deployed as
 * {@code nettyrelay.war}: the servlet side is the same (non-blocking read and write, one flush per upstream read),
 * so the difference between the two measures the HTTP client alone.
 */
@WebServlet(urlPatterns = "/v1/chat/completions", asyncSupported = true)
public class NettyRelay extends HttpServlet {

    private static final String UPSTREAM = System.getProperty("relay.upstream",
            System.getenv().getOrDefault("RELAY_UPSTREAM", "http://127.0.0.1:8099/primary/v1/chat/completions"));

    /** The answer a pooled connection is carrying; null while it is idle, so each exchange ends only once. */
    private static final AttributeKey<Output> CURRENT = AttributeKey.valueOf("nettyrelay.output");

    private final URI uri = URI.create(UPSTREAM);
    private final int port = uri.getPort() < 0 ? 80 : uri.getPort();
    private final String hostHeader = uri.getHost() + (uri.getPort() < 0 ? "" : ":" + port);
    private final String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    /** Idle keep-alive connections, lock-free; most recently used first, as it is the warmest. */
    private final Deque<Channel> idle = new ConcurrentLinkedDeque<>();
    private EventLoopGroup group;
    private Bootstrap bootstrap;

    @Override
    public void init() {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        Answer answer = new Answer();
        bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .remoteAddress(new InetSocketAddress(uri.getHost(), port)) // resolved once, not per connect
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        // No aggregator: each HttpContent is relayed as it is decoded from a socket read.
                        ch.pipeline().addLast(new HttpClientCodec(), answer);
                    }
                });
    }

    @Override
    public void destroy() {
        idle.forEach(Channel::close);
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        AsyncContext async = req.startAsync();
        async.setTimeout(60_000);
        ServletInputStream in = req.getInputStream();
        ByteArrayOutputStream body = new ByteArrayOutputStream(256);
        byte[] buffer = new byte[1024];
        in.setReadListener(new ReadListener() {
            @Override
            public void onDataAvailable() throws IOException {
                while (in.isReady()) {
                    int n = in.read(buffer);
                    if (n < 0) {
                        return;
                    }
                    body.write(buffer, 0, n);
                }
            }

            @Override
            public void onAllDataRead() throws IOException {
                send(body.toByteArray(), new Output(async, resp));
            }

            @Override
            public void onError(Throwable t) {
                async.complete();
            }
        });
    }

    /** Takes an idle connection that is still open, or opens one; a closed one found idle is dropped. */
    private void send(byte[] body, Output output) {
        for (Channel ch = idle.pollFirst(); ch != null; ch = idle.pollFirst()) {
            if (ch.isActive()) {
                exchange(ch, body, output);
                return;
            }
        }
        bootstrap.connect().addListener((ChannelFutureListener) f -> {
            if (f.isSuccess()) {
                exchange(f.channel(), body, output);
            } else {
                output.fail();
            }
        });
    }

    private void exchange(Channel ch, byte[] body, Output output) {
        ch.attr(CURRENT).set(output); // before the write, so the answer always finds its output
        var request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, target,
                Unpooled.wrappedBuffer(body));
        request.headers().set(HttpHeaderNames.HOST, hostHeader)
                .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        ch.writeAndFlush(request).addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
                fail(f.channel());
            }
        });
    }

    /** Ends the exchange on a broken connection: the connection is closed, never pooled, and the caller gets 502. */
    private static void fail(Channel ch) {
        Output output = ch.attr(CURRENT).getAndSet(null);
        ch.close();
        if (output != null) {
            output.fail();
        }
    }

    /** Shared by every connection (it keeps no state of its own); runs on the connection's event loop. */
    @Sharable
    private final class Answer extends SimpleChannelInboundHandler<HttpObject> { // releases each message after use

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            Channel ch = ctx.channel();
            Output output = ch.attr(CURRENT).get();
            if (output == null || msg.decoderResult().isFailure()) {
                fail(ch); // bytes nobody asked for, or an answer that is not HTTP: the connection is unusable
                return;
            }
            if (msg instanceof HttpResponse response) {
                output.keepAlive = HttpUtil.isKeepAlive(response);
                output.head(response);
            }
            if (msg instanceof HttpContent content) {
                ByteBuf buf = content.content();
                if (buf.isReadable()) {
                    byte[] bytes = new byte[buf.readableBytes()];
                    buf.readBytes(bytes);
                    output.offer(bytes, false); // written and flushed now: one flush per upstream read, as Relay
                }
                if (msg instanceof LastHttpContent) {
                    ch.attr(CURRENT).set(null); // idle before it is pooled: the next user sets its own output
                    if (output.keepAlive) {
                        idle.offerFirst(ch);
                    } else {
                        ch.close();
                    }
                    output.offer(null, true);
                }
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            fail(ctx.channel()); // a 502 only if an exchange was under way
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            fail(ctx.channel());
        }
    }

    /** Copies the upstream's answer to the caller: written while the caller's connection takes it, flushed per read. */
    private static final class Output implements WriteListener {

        private final AsyncContext async;
        private final HttpServletResponse resp;
        private final ServletOutputStream out;
        private final ArrayDeque<byte[]> queue = new ArrayDeque<>();
        /** Read and written on the connection's event loop only. */
        boolean keepAlive;
        private boolean ended;
        private boolean done;
        /** Flushing nothing would send the status line on its own. */
        private boolean unflushed;

        Output(AsyncContext async, HttpServletResponse resp) throws IOException {
            this.async = async;
            this.resp = resp;
            this.out = resp.getOutputStream();
        }

        void head(HttpResponse response) {
            resp.setStatus(response.status().code());
            String type = response.headers().get(HttpHeaderNames.CONTENT_TYPE);
            if (type != null) {
                resp.setContentType(type);
            }
            long length = HttpUtil.getContentLength(response, -1L);
            if (length >= 0) {
                resp.setContentLengthLong(length);
            }
            out.setWriteListener(this);
        }

        synchronized void offer(byte[] bytes, boolean last) {
            if (bytes != null) {
                queue.add(bytes);
            }
            ended |= last;
            onWritePossible();
        }

        @Override
        public synchronized void onWritePossible() {
            try {
                while (!done && out.isReady()) {
                    byte[] next = queue.poll();
                    if (next != null) {
                        out.write(next);
                        unflushed = true;
                    } else if (ended) {
                        done = true;
                        async.complete();
                    } else {
                        if (unflushed) {
                            unflushed = false;
                            out.flush();
                        }
                        return;
                    }
                }
            } catch (IOException e) {
                fail();
            }
        }

        @Override
        public void onError(Throwable t) {
            fail();
        }

        synchronized void fail() {
            if (!done) {
                done = true;
                if (!resp.isCommitted()) {
                    resp.setStatus(502);
                }
                async.complete();
            }
        }
    }
}
