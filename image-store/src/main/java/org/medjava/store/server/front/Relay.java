package org.medjava.store.server.front;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.store.server.http.ErrorBody;
import org.medjava.store.server.http.FrontHeaders;

/**
 * One request the front leaves to Payara: its headers (less the hop-by-hop ones and any {@link FrontHeaders} a client
 * sent, plus the front's own) and body go to a pooled loopback connection ({@link Backend}), and Payara's answer
 * comes back as it is, streamed both ways with back-pressure (a side that cannot take more stops the other from
 * reading). A client that goes away ends the backend connection; a backend connection that fails ends the answer
 * (502 when nothing of it was sent). Everything here runs on the front channel's event loop, to which the backend's
 * events are handed.
 */
final class Relay {
    private static final Logger LOG = Logger.getLogger(Relay.class.getName());

    private final ChannelHandlerContext front;
    private final Backend backend;
    private final boolean http2;
    private final boolean keepAlive;
    private final Runnable done;
    /** Parts of the request that arrived before a backend connection did. */
    private final Queue<HttpObject> waiting = new ArrayDeque<>();
    private Channel connection;
    private boolean requestDone;
    private boolean responseStarted;
    private boolean responseDone;
    private boolean informational;
    private boolean backendReusable = true;
    private boolean frontKeepAlive;
    private boolean finished;

    /**
     * @param done called once on the front's event loop when the exchange is over (answered or abandoned)
     */
    Relay(ChannelHandlerContext front, Backend backend, boolean http2, boolean keepAlive, Runnable done) {
        this.front = front;
        this.backend = backend;
        this.http2 = http2;
        this.keepAlive = keepAlive;
        this.frontKeepAlive = keepAlive;
        this.done = done;
    }

    /** Starts the exchange with the request's head. */
    void start(HttpRequest request, String peer, String local, boolean secure) {
        HttpRequest out = new DefaultHttpRequest(HttpVersion.HTTP_1_1, request.method(), request.uri());
        copyHeaders(request.headers(), out.headers(), http2);
        FrontHeaders.sign(out.headers()::set, peer, local, secure);
        if (http2 && !out.headers().contains(HttpHeaderNames.CONTENT_LENGTH) && !(request instanceof LastHttpContent)) {
            HttpUtil.setTransferEncodingChunked(out, true); // an HTTP/2 body of unknown length
        }
        waiting.add(out);
        if (request instanceof LastHttpContent last) { // a whole request (HTTP/2 without a body)
            waiting.add(new io.netty.handler.codec.http.DefaultLastHttpContent(last.content().retain(),
                    last.trailingHeaders()));
            requestDone = true;
        }
        backend.acquire().addListener((Future<Channel> f) -> {
            if (front.executor().inEventLoop()) {
                acquired(f);
            } else {
                front.executor().execute(() -> acquired(f));
            }
        });
    }

    private void acquired(Future<Channel> f) {
        if (!f.isSuccess()) {
            drop();
            LOG.log(Level.FINE, "no connection to Payara for a request: {0}", String.valueOf(f.cause()));
            unavailable();
            return;
        }
        Channel ch = f.getNow();
        if (finished) { // the client went while we waited: the connection is unused
            backend.release(ch, true);
            return;
        }
        connection = ch;
        ch.attr(Backend.RELAY).set(this);
        for (HttpObject part; (part = waiting.poll()) != null; ) {
            ch.write(part);
        }
        ch.flush();
        if (!ch.isWritable()) {
            pauseClient(ch);
        } else if (!front.channel().config().isAutoRead()) {
            resumeClient(); // paused while waiting for the connection
        }
    }

    /** A part of the request's body from the client. */
    void fromClient(HttpContent content) {
        if (finished) {
            content.release();
            return;
        }
        if (content instanceof LastHttpContent) {
            requestDone = true;
        }
        if (connection == null) { // no connection yet: what has come waits, and the client waits for it
            waiting.add(content);
            front.channel().config().setAutoRead(false);
            return;
        }
        connection.writeAndFlush(content);
        if (!connection.isWritable()) {
            pauseClient(connection); // Payara reads slower than the client sends
        }
    }

    /**
     * Stops reading the client until the backend connection can take more. Its writability changes on its own
     * event loop: the check made there after the pause catches a change that came before the pause took hold.
     */
    private void pauseClient(Channel backendConnection) {
        front.channel().config().setAutoRead(false);
        backendConnection.eventLoop().execute(() -> {
            if (backendConnection.isWritable()) {
                backendWritable(true);
            }
        });
    }

    /** Something of Payara's answer (called on the backend's event loop). */
    void fromBackend(HttpObject part) {
        if (front.executor().inEventLoop()) {
            answer(part);
        } else {
            front.executor().execute(() -> answer(part));
        }
    }

    private void answer(HttpObject part) {
        if (finished) {
            ReferenceCountUtil.release(part);
            return;
        }
        if (part instanceof HttpResponse response) {
            informational = response.status().codeClass() == io.netty.handler.codec.http.HttpStatusClass.INFORMATIONAL;
            if (informational) { // 100 Continue: passed on whole, the exchange goes on
                ReferenceCountUtil.release(part);
                front.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, response.status()));
                return;
            }
            backendReusable = HttpUtil.isKeepAlive(response);
            HttpResponse out = new io.netty.handler.codec.http.DefaultHttpResponse(HttpVersion.HTTP_1_1,
                    response.status());
            copyHeaders(response.headers(), out.headers(), false);
            if (!http2) {
                boolean delimited = HttpUtil.isContentLengthSet(response) || HttpUtil.isTransferEncodingChunked(response)
                        || !mayHaveBody(response.status());
                frontKeepAlive = keepAlive && delimited;
                if (!frontKeepAlive) {
                    out.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                }
            }
            responseStarted = true;
            if (response instanceof HttpContent content) { // a whole response: pass its content on too
                front.write(out);
                answer(content.retain());
                ReferenceCountUtil.release(response);
                return;
            }
            front.write(out);
            return;
        }
        if (part instanceof HttpContent content) {
            if (informational) { // the end of a 100 Continue
                informational = false;
                content.release();
                return;
            }
            if (content instanceof LastHttpContent) {
                responseDone = true;
                front.writeAndFlush(content).addListener((ChannelFutureListener) w -> {
                    if (!frontKeepAlive || !w.isSuccess()) {
                        front.channel().close();
                    }
                });
                finish();
                return;
            }
            front.writeAndFlush(content);
            if (!front.channel().isWritable() && connection != null) {
                connection.config().setAutoRead(false); // the client reads slower than Payara answers
            }
        }
    }

    private static boolean mayHaveBody(HttpResponseStatus status) {
        int code = status.code();
        return code != 204 && code != 304 && code >= 200;
    }

    /** The front channel's writability changed. */
    void frontWritable(boolean writable) {
        if (connection != null) {
            connection.config().setAutoRead(writable);
        }
    }

    /** The backend connection's writability changed (called on its event loop). */
    void backendWritable(boolean writable) {
        front.executor().execute(() -> {
            if (!finished) {
                if (writable) {
                    resumeClient();
                } else {
                    front.channel().config().setAutoRead(false);
                }
            }
        });
    }

    /** Reads the client again (on the front's event loop). */
    private void resumeClient() {
        front.channel().config().setAutoRead(true);
        front.read();
        if (http2) {
            // the stream's window updates for what was just read are written, not flushed: without a flush the
            // client waits for them and sends nothing more (a stall at two windows)
            front.channel().parent().flush();
        }
    }

    /** The backend connection closed or failed (called on its event loop). */
    void backendGone(Throwable cause) {
        front.executor().execute(() -> {
            if (finished) {
                return;
            }
            backendReusable = false;
            if (!responseStarted) {
                LOG.log(Level.WARNING, "Payara's listener closed the connection before answering: {0}",
                        String.valueOf(cause));
                byte[] body = ErrorBody.json(502, "the store's application did not answer").getBytes(
                        StandardCharsets.UTF_8);
                DefaultFullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                        HttpResponseStatus.BAD_GATEWAY, Unpooled.wrappedBuffer(body));
                r.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json").set(HttpHeaderNames.CONTENT_LENGTH,
                        body.length);
                FrontReads.common(r.headers(), false);
                FrontReads.finish(front, r, false);
            } else {
                front.channel().close(); // the answer is cut: the client must see it was
            }
            finish();
        });
    }

    /** The client went away: the backend connection, mid-exchange, cannot be reused. */
    void clientGone() {
        if (finished) {
            return;
        }
        backendReusable = false;
        drop();
        finish();
    }

    private void unavailable() {
        byte[] body = ErrorBody.json(503, "the store is busy: try again shortly").getBytes(StandardCharsets.UTF_8);
        DefaultFullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.SERVICE_UNAVAILABLE, Unpooled.wrappedBuffer(body));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                .set(HttpHeaderNames.CONTENT_LENGTH, body.length).set(HttpHeaderNames.RETRY_AFTER, "1");
        FrontReads.common(r.headers(), false);
        // the request's body (if any) is not read: the connection cannot be reused for the next request
        FrontReads.finish(front, r, keepAlive && requestDone);
        finish();
    }

    private void drop() {
        for (HttpObject part; (part = waiting.poll()) != null; ) {
            ReferenceCountUtil.release(part);
        }
    }

    private void finish() {
        if (finished) {
            return;
        }
        finished = true;
        if (!front.channel().config().isAutoRead()) {
            front.channel().config().setAutoRead(true);
        }
        if (connection != null) {
            Channel ch = connection;
            connection = null;
            ch.config().setAutoRead(true);
            backend.release(ch, backendReusable && requestDone && responseDone);
        }
        done.run();
    }

    /** The headers Connection names, and the hop-by-hop ones of RFC 9110 §7.6.1, stay on their hop. */
    static void copyHeaders(HttpHeaders from, HttpHeaders to, boolean fromHttp2) {
        String connection = from.get(HttpHeaderNames.CONNECTION);
        for (Iterator<Map.Entry<String, String>> it = from.iteratorAsString(); it.hasNext(); ) {
            Map.Entry<String, String> header = it.next();
            String name = header.getKey().toLowerCase(Locale.ROOT);
            if (hopByHop(name) || name.startsWith(FrontHeaders.PREFIX) || fromHttp2 && name.startsWith("x-http2-")
                    || connection != null && listed(connection, name)) {
                continue;
            }
            to.add(header.getKey(), header.getValue());
        }
    }

    private static boolean hopByHop(String name) {
        return switch (name) {
            case "connection", "keep-alive", "proxy-connection", "te", "trailer", "upgrade", "http2-settings",
                 "proxy-authenticate", "proxy-authorization" -> true;
            default -> false;
        };
    }

    private static boolean listed(String connection, String name) {
        for (String token : connection.split(",")) {
            if (token.trim().equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }
}
