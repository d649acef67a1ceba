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
import jakarta.servlet.annotation.WebServlet;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;

/**
 * The benchmark's relay, deployed as {@code nettyrelay.war}: the cheapest asynchronous gateway this server and
 * Netty 4.2 (Baton's HTTP client) allow. The servlet side is {@link RelayServlet}; the upstream call is a pooled
 * keep-alive Netty connection, each decoded read copied back as it comes.
 */
@WebServlet(urlPatterns = "/v1/*", asyncSupported = true)
public class NettyRelay extends RelayServlet {

    /** The answer a pooled connection is carrying; null while it is idle, so each exchange ends only once. */
    private static final AttributeKey<Output> CURRENT = AttributeKey.valueOf("nettyrelay.output");
    /** Whether the connection's current answer leaves it open for the next exchange. */
    private static final AttributeKey<Boolean> KEEP_ALIVE = AttributeKey.valueOf("nettyrelay.keep-alive");

    private final URI uri = URI.create(UPSTREAM);
    private final int port = uri.getPort() < 0 ? 80 : uri.getPort();
    private final String hostHeader = uri.getHost() + (uri.getPort() < 0 ? "" : ":" + port);
    /** The path every request's own path (after {@code /v1}) is appended to. */
    private final String basePath = uri.getRawPath().replaceAll("/+$", "");
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

    /** Takes an idle connection that is still open, or opens one; a closed one found idle is dropped. */
    @Override
    void send(String path, byte[] body, Output output) {
        String target = basePath + path;
        for (Channel ch = idle.pollFirst(); ch != null; ch = idle.pollFirst()) {
            if (ch.isActive()) {
                exchange(ch, target, body, output);
                return;
            }
        }
        bootstrap.connect().addListener((ChannelFutureListener) f -> {
            if (f.isSuccess()) {
                exchange(f.channel(), target, body, output);
            } else {
                output.fail();
            }
        });
    }

    private void exchange(Channel ch, String target, byte[] body, Output output) {
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
                ch.attr(KEEP_ALIVE).set(HttpUtil.isKeepAlive(response));
                output.head(response.status().code(), response.headers().get(HttpHeaderNames.CONTENT_TYPE),
                        HttpUtil.getContentLength(response, -1L));
            }
            if (msg instanceof HttpContent content) {
                ByteBuf buf = content.content();
                if (buf.isReadable()) {
                    byte[] bytes = new byte[buf.readableBytes()];
                    buf.readBytes(bytes);
                    output.offer(bytes, false); // written and flushed now: one flush per upstream read
                }
                if (msg instanceof LastHttpContent) {
                    ch.attr(CURRENT).set(null); // idle before it is pooled: the next user sets its own output
                    if (Boolean.TRUE.equals(ch.attr(KEEP_ALIVE).get())) {
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
}
