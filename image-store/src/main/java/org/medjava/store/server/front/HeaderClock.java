package org.medjava.store.server.front;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The time limits of an HTTP/1.1 connection on the front, as nginx keeps them: the request line and headers must
 * all arrive within the header timeout from their first byte ({@code medjava.http.header-timeout-seconds}, like
 * {@code client_header_timeout}), so a client sending a header a byte a second cannot hold a connection for ever;
 * a connection with no request in progress is closed after the idle timeout (like {@code keepalive_timeout}). A
 * request in progress has no limit here: a long upload or download is never cut. It sits before the HTTP codec and
 * sees the raw bytes; {@link FrontHandler} says when a request's headers have arrived and when its answer is done.
 * Runs on the connection's event loop only.
 */
final class HeaderClock extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = Logger.getLogger(HeaderClock.class.getName());

    private final long headerNanos;
    private final long idleNanos;
    private ChannelHandlerContext ctx;
    /** Requests whose headers arrived and whose answers are not done yet (HTTP/1.1 pipelining: several). */
    private int inProgress;
    /** Whether bytes of the next request's headers have arrived. */
    private boolean headersStarted;
    private ScheduledFuture<?> deadline;
    private boolean stopped;

    /** @param headerNanos 0: no header limit */
    HeaderClock(long headerNanos, long idleNanos) {
        this.headerNanos = headerNanos;
        this.idleNanos = idleNanos;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        arm(idleNanos, "idle");
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!stopped && inProgress == 0 && !headersStarted && msg instanceof ByteBuf b && b.isReadable()) {
            headersStarted = true;
            arm(headerNanos, "header");
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancel();
        super.channelInactive(ctx);
    }

    /** A request's line and headers have arrived. */
    void headersArrived() {
        inProgress++;
        headersStarted = false;
        cancel();
    }

    /** A request's answer has been written (or abandoned). */
    void answered() {
        if (inProgress > 0 && --inProgress == 0 && !stopped) {
            arm(idleNanos, "idle");
        }
    }

    /** The connection became HTTP/2, which keeps its own time. */
    void stop() {
        stopped = true;
        cancel();
    }

    private void arm(long nanos, String which) {
        cancel();
        if (nanos > 0 && !stopped) {
            deadline = ctx.executor().schedule(() -> expire(which), nanos, TimeUnit.NANOSECONDS);
        }
    }

    private void expire(String which) {
        deadline = null;
        if (stopped || inProgress > 0) {
            return;
        }
        LOG.log(Level.FINE, "closing {0}: {1} timeout", new Object[] {ctx.channel().remoteAddress(), which});
        ctx.close();
    }

    private void cancel() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }
}
