package org.medjava.store.server.front;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Closes a connection on which nothing has moved either way for a while: nothing read, nothing flushed, and no byte
 * of what is being written gone out — an HTTP/2 connection (which {@link HeaderClock} does not watch) left open and
 * unused, or a TLS handshake never finished. It looks every fifth of the limit, so a silent connection is closed
 * between the limit and 1.2 times it. Netty's {@code IdleStateHandler} does the same by hanging a listener on every
 * write's promise: on an HTTP/2 connection, whose answers are several frames each, that cost a fifth of the event
 * loop (measured); here a read or a flush sets a flag.
 */
final class Silence extends ChannelDuplexHandler {
    private static final Logger LOG = Logger.getLogger(Silence.class.getName());

    private final long limitNanos;
    private final long lookNanos;
    private boolean moved;
    private long quietSince;
    /** What was being written at the last look (its identity: the message itself may be long gone), how far it had gone. */
    private int writing;
    private long writingProgress;
    private long pending;
    private ScheduledFuture<?> look;

    Silence(long limit, TimeUnit unit) {
        this.limitNanos = unit.toNanos(limit);
        this.lookNanos = Math.max(1, limitNanos / 5);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        quietSince = ctx.executor().ticker().nanoTime();
        schedule(ctx);
        super.channelActive(ctx);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) { // added to a connection already open (after TLS or an upgrade)
            quietSince = ctx.executor().ticker().nanoTime();
            schedule(ctx);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        moved = true;
        ctx.fireChannelRead(msg);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        moved = true;
        ctx.flush();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancel();
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancel();
    }

    private void schedule(ChannelHandlerContext ctx) {
        if (look == null) {
            look = ctx.executor().schedule(() -> look(ctx), lookNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void look(ChannelHandlerContext ctx) {
        look = null;
        if (!ctx.channel().isActive()) {
            return;
        }
        long now = ctx.executor().ticker().nanoTime();
        if (moved | outputMoved(ctx)) {
            moved = false;
            quietSince = now;
        } else if (now - quietSince >= limitNanos) {
            LOG.log(Level.FINE, "closing {0}: silent for {1} s",
                    new Object[] {ctx.channel().remoteAddress(), TimeUnit.NANOSECONDS.toSeconds(limitNanos)});
            ctx.close();
            return;
        }
        schedule(ctx);
    }

    /** Whether bytes of what is queued for the connection went out since the last look (a slow reader's download). */
    private boolean outputMoved(ChannelHandlerContext ctx) {
        ChannelOutboundBuffer buffer = ctx.channel().unsafe().outboundBuffer();
        int current = buffer == null || buffer.current() == null ? 0 : System.identityHashCode(buffer.current());
        long progress = buffer == null ? 0 : buffer.currentProgress();
        long queued = buffer == null ? 0 : buffer.totalPendingWriteBytes();
        boolean moved = current != writing || progress != writingProgress || queued != pending;
        writing = current;
        writingProgress = progress;
        pending = queued;
        return moved;
    }

    private void cancel() {
        if (look != null) {
            look.cancel(false);
            look = null;
        }
    }
}
