package org.medjava.store.server.front;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.pool.AbstractChannelPoolHandler;
import io.netty.channel.pool.ChannelHealthChecker;
import io.netty.channel.pool.FixedChannelPool;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObject;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import java.net.InetSocketAddress;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Payara's HTTP listener on the loopback, as the front reaches it: a bounded pool of kept-alive HTTP/1.1 connections
 * ({@code maxConnections}: as many requests as Payara runs at once), and a bounded queue of requests waiting for one
 * ({@code maxWaiting}); a request that finds the queue full, or waits longer than {@code waitMillis}, is answered
 * 503 with {@code Retry-After} by its {@link Relay} — never an unbounded wait.
 */
final class Backend implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(Backend.class.getName());
    /** The relay a backend connection is serving now; null while it waits in the pool. */
    static final AttributeKey<Relay> RELAY = AttributeKey.valueOf("medjava.relay");

    private final FixedChannelPool pool;

    Backend(EventLoopGroup group, Class<? extends Channel> channelType, InetSocketAddress address,
            int maxConnections, int maxWaiting, long waitMillis) {
        Bootstrap bootstrap = new Bootstrap().group(group).channel(channelType).remoteAddress(address)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5_000);
        this.pool = new FixedChannelPool(bootstrap, new AbstractChannelPoolHandler() {
            @Override
            public void channelCreated(Channel ch) {
                ch.pipeline().addLast("codec", new HttpClientCodec(8192, 65536, 65536));
                ch.pipeline().addLast("relay", new ToRelay());
            }
        }, ChannelHealthChecker.ACTIVE, FixedChannelPool.AcquireTimeoutAction.FAIL, waitMillis, maxConnections,
                maxWaiting, true, true);
    }

    Future<Channel> acquire() {
        return pool.acquire();
    }

    /** Gives a connection back for the next request, or closes it when it cannot carry one. */
    void release(Channel channel, boolean reusable) {
        channel.attr(RELAY).set(null);
        if (!reusable) {
            channel.close();
        }
        pool.release(channel);
    }

    @Override
    public void close() {
        pool.close();
    }

    /** Hands what Payara answers to the relay the connection serves. */
    private static final class ToRelay extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Relay relay = ctx.channel().attr(RELAY).get();
            if (relay == null || !(msg instanceof HttpObject o)) {
                ReferenceCountUtil.release(msg); // nothing asked for it
                ctx.close();
                return;
            }
            relay.fromBackend(o);
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
            Relay relay = ctx.channel().attr(RELAY).get();
            if (relay != null) {
                relay.backendWritable(ctx.channel().isWritable());
            }
            super.channelWritabilityChanged(ctx);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            Relay relay = ctx.channel().attr(RELAY).getAndSet(null);
            if (relay != null) {
                relay.backendGone(null);
            }
            super.channelInactive(ctx);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            Relay relay = ctx.channel().attr(RELAY).getAndSet(null);
            LOG.log(Level.FINE, "the connection to Payara failed", cause);
            if (relay != null) {
                relay.backendGone(cause);
            }
            ctx.close();
        }
    }
}
