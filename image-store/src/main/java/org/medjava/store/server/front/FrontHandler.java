package org.medjava.store.server.front;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.codec.http2.CleartextHttp2ServerUpgradeHandler;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.store.server.http.ErrorBody;

/**
 * The requests of one HTTP/1.1 connection, or of one HTTP/2 stream, on the store's front: each is refused when its
 * address cannot be decoded, answered here when it is a plain read ({@link FrontReads}) or a DICOMweb read the front
 * takes up ({@link FrontDicomWeb}), or relayed to Payara ({@link Relay}). Requests pipelined behind a relayed or
 * taken-up one wait until its answer is done, so answers go out in the order the requests came.
 */
final class FrontHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = Logger.getLogger(FrontHandler.class.getName());

    private final FrontReads reads;
    private final FrontDicomWeb dicomWeb;
    private final Backend backend;
    private final boolean http2;
    private final boolean secure;
    private HeaderClock clock;
    private ChannelHandlerContext ctx;
    /** The relayed request in progress, if any. */
    private Relay relay;
    /** A DICOMweb read taken up and not done yet (its request, kept for the container should it answer). */
    private HttpRequest pending;
    private boolean pendingWhole;
    /** Whether all of the relayed request has been passed on. */
    private boolean relayRequestDone;
    /** The rest of a request already answered is read and dropped. */
    private boolean discarding;
    /** What arrived for the next requests while a relayed one was being answered. */
    private final ArrayDeque<Object> queued = new ArrayDeque<>();

    FrontHandler(FrontReads reads, FrontDicomWeb dicomWeb, Backend backend, boolean http2, boolean secure) {
        this.reads = reads;
        this.dicomWeb = dicomWeb;
        this.backend = backend;
        this.http2 = http2;
        this.secure = secure;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.clock = http2 ? null : ctx.pipeline().get(HeaderClock.class);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (pending != null || relay != null && relayRequestDone || !queued.isEmpty()) {
            queued.add(msg);
            ctx.channel().config().setAutoRead(false);
            return;
        }
        handle(msg);
    }

    private void handle(Object msg) throws Exception {
        if (msg instanceof HttpRequest request) {
            request(request);
        } else if (msg instanceof HttpContent content) {
            boolean last = content instanceof LastHttpContent;
            if (discarding) {
                content.release();
                discarding = !last;
            } else if (relay != null) {
                relayRequestDone = last;
                relay.fromClient(content);
            } else {
                content.release();
            }
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    private void request(HttpRequest request) throws Exception {
        if (clock != null) {
            clock.headersArrived();
        }
        boolean whole = request instanceof FullHttpRequest || request instanceof LastHttpContent;
        try {
            if (request.decoderResult().isFailure()) {
                malformed(request.decoderResult().cause());
                return;
            }
            boolean keepAlive = http2 || HttpUtil.isKeepAlive(request);
            String uri = request.uri();
            int query = uri.indexOf('?');
            String rawPath = query < 0 ? uri : uri.substring(0, query);
            if (reads.refusedPath(ctx, request, rawPath, keepAlive, secure)
                    || reads.answer(ctx, request, rawPath, http2, keepAlive, secure)
                    || reads.liveness(ctx, request, rawPath, keepAlive, secure)) {
                discarding = !whole;
                answered();
                return;
            }
            if (dicomWeb != null && dicomWeb.start(ctx, request, rawPath, http2, keepAlive, secure,
                    this::dicomWebDone)) {
                pending = whole ? (HttpRequest) ReferenceCountUtil.retain(request) : request;
                pendingWhole = whole;
                return;
            }
            relay(request, whole, keepAlive);
        } finally {
            if (whole) {
                ReferenceCountUtil.release(request);
            }
        }
    }

    private void relay(HttpRequest request, boolean whole, boolean keepAlive) {
        relay = new Relay(ctx, backend, http2, keepAlive, this::relayDone);
        relayRequestDone = whole;
        relay.start(request, reads.clientPeer(ctx), FrontReads.localAddress(ctx), secure);
    }

    /** A DICOMweb read taken up is done: answered, or to be relayed as it came. */
    private void dicomWebDone(boolean answered) {
        HttpRequest request = pending;
        boolean whole = pendingWhole;
        pending = null;
        if (request == null) { // the connection closed meanwhile
            return;
        }
        try {
            if (answered) {
                discarding = !whole;
                answered();
            } else {
                relay(request, whole, http2 || HttpUtil.isKeepAlive(request));
            }
        } catch (Exception e) {
            exceptionCaught(ctx, e);
        } finally {
            if (whole) {
                ReferenceCountUtil.release(request);
            }
        }
        drain();
    }

    /** A request the codec could not read: 400 (431, 414 for what is too long), and the connection ends. */
    private void malformed(Throwable cause) {
        HttpResponseStatus status = cause instanceof TooLongHttpHeaderException
                ? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
                : cause instanceof TooLongHttpLineException ? HttpResponseStatus.REQUEST_URI_TOO_LONG
                : HttpResponseStatus.BAD_REQUEST;
        String reason = cause instanceof TooLongFrameException ? "the request's line or headers are too long"
                : "the request is not well-formed HTTP: " + cause.getMessage();
        byte[] body = ErrorBody.json(status.code(), reason).getBytes(StandardCharsets.UTF_8);
        DefaultFullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(body));
        FrontReads.common(response.headers(), secure);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                .set(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        FrontReads.finish(ctx, response, false);
        discarding = true;
    }

    private void answered() {
        if (clock != null) {
            clock.answered();
        }
    }

    private void relayDone() {
        relay = null;
        discarding = !relayRequestDone; // an early answer (a refusal before the body): the rest is dropped
        relayRequestDone = false;
        answered();
        drain();
    }

    /** Goes on with what arrived meanwhile, up to the next request that has to wait again. */
    private void drain() {
        try {
            while (!queued.isEmpty() && pending == null && !(relay != null && relayRequestDone)) {
                handle(queued.poll());
            }
        } catch (Exception e) {
            exceptionCaught(ctx, e);
        }
        if (pending == null && (relay == null || !relayRequestDone)) {
            ctx.channel().config().setAutoRead(true);
            ctx.read();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof HttpServerUpgradeHandler.UpgradeEvent
                || evt instanceof CleartextHttp2ServerUpgradeHandler.PriorKnowledgeUpgradeEvent) {
            if (clock != null) { // the connection is HTTP/2 now: its streams have handlers of their own
                clock.stop();
            }
            ctx.pipeline().remove(this);
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (relay != null) {
            relay.frontWritable(ctx.channel().isWritable());
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (relay != null) {
            relay.clientGone();
        }
        for (Object msg; (msg = queued.poll()) != null; ) {
            ReferenceCountUtil.release(msg);
        }
        if (pending != null) {
            if (pendingWhole) {
                ReferenceCountUtil.release(pending);
            }
            pending = null;
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.log(Level.FINE, "closing a front connection after: " + cause, cause);
        ctx.close();
    }
}
