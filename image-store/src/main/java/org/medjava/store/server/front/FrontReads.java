package org.medjava.store.server.front;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpChunkedInput;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.stream.ChunkedNioFile;
import io.netty.util.AttributeKey;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.audit.ReadAudit;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.StoredFile;
import org.medjava.store.server.config.HttpSettings;
import org.medjava.store.server.config.LinkSettings;
import org.medjava.store.server.config.StorageSettings;
import org.medjava.store.server.health.LivenessFilter;
import org.medjava.store.server.http.PublicBase;
import org.medjava.store.server.logging.AccessLog;
import org.medjava.store.server.monitoring.RegistryMetrics;
import org.medjava.store.server.security.ReadAuthentication;
import org.medjava.store.server.security.StoreAuthenticationMechanism;
import org.medjava.store.server.filter.FileDownload;
import org.medjava.store.server.filter.FileDownloadFilter;
import org.medjava.store.server.filter.RequestGuardFilter;
import org.medjava.store.server.http.ErrorBody;
import org.medjava.store.server.http.HostCheck;

/**
 * The reads the front ({@link FrontServer}) answers itself, on its event loop: a plain GET or HEAD of a stored file
 * under {@code /images/}, decided as the container's path would decide it — the Host check ({@link HostCheck}), the
 * caller ({@link ReadAuthentication}), the file ({@link FileDownloadFilter#storedFile}), the answer
 * ({@link FileDownload}: validators, conditional requests, ranges) — with the same access log line and request
 * metrics. The bytes of a larger file go out with sendfile(2) over HTTP/1.1, in chunks over HTTP/2; a small one
 * in the same write as its headers. Anything it cannot answer exactly as the container would — another method or
 * path, a query, a body, a ';', an {@code Origin}, a login to check or refuse, a missing file, a directory, storage
 * that is not a local file system (an object of S3 storage is answered here only from the node's copy of it,
 * {@link ImageRepository#cached}) or fails before the answer starts — is left to the container, which decides it
 * in full ({@link #answer} returns false having written nothing).
 */
final class FrontReads {
    private static final Logger LOG = Logger.getLogger(FrontReads.class.getName());
    /**
     * Up to this size a file is read into the answer's buffer and written with its headers in one system call
     * (sendfile(2) for a 39 KB file: 4% fewer reads a second, measured).
     */
    static final int SMALL = 128 * 1024;
    /** The audit trail's name for the reads the front answers itself. */
    static final String DOOR = "front";
    /** The chunks a file is sent in where sendfile(2) cannot serve (HTTP/2, TLS). */
    static final int CHUNK = 64 * 1024;

    private final String contextPath;
    private final boolean trustForwarded;
    private final boolean serveFiles;
    /** Whether the files of object storage are served from this node's copies of them (when it has one). */
    private final boolean serveCached;
    private final HostCheck hosts;
    private final ReadAuthentication callers;
    private final ImageRepository images;
    private final AccessLog accessLog;
    private final RegistryMetrics metrics;
    private final SmallFileCache cache;
    private final RegistryMetrics.EndpointTimers getTimers;
    private final RegistryMetrics.EndpointTimers headTimers;
    /** The application's liveness checks run, pretty-printed or not. */
    private final Function<Boolean, LivenessFilter.Report> liveness;
    private final ReadAudit audit;

    FrontReads(String contextPath, LinkSettings links, HttpSettings http, StorageSettings storage,
               ReadAuthentication callers, ImageRepository images,
               AccessLog accessLog, RegistryMetrics metrics, Function<Boolean, LivenessFilter.Report> liveness,
               ReadAudit audit) {
        this.contextPath = contextPath;
        this.audit = audit;
        this.liveness = liveness;
        this.trustForwarded = links.trustForwarded();
        // a file read on the event loop must not wait on a network: only local storage is served here
        this.serveFiles = http.directReads() && !storage.s3Storage();
        // ... or from the node-local copy of an object, without asking the object store (a miss goes on)
        this.serveCached = http.directReads() && storage.s3Storage() && storage.cacheBytes() > 0;
        this.hosts = new HostCheck(links);
        this.callers = callers;
        this.images = images;
        this.accessLog = accessLog;
        this.metrics = metrics;
        this.cache = new SmallFileCache(http.readCacheBytes(), SMALL);
        this.getTimers = metrics.endpointTimers("GET", FileDownloadFilter.ENDPOINT, true);
        this.headTimers = metrics.endpointTimers("HEAD", FileDownloadFilter.ENDPOINT, true);
    }

    /** The client's address, for the logs and the login throttle: the peer, or a trusted proxy's word for it. */
    String clientAddress(ChannelHandlerContext ctx, HttpRequest request) {
        return PublicBase.clientAddress(trustForwarded, clientPeer(ctx), request.headers()::get);
    }

    /** The connection's peer. */
    String clientPeer(ChannelHandlerContext ctx) {
        return Peers.of(ctx).peer;
    }

    /**
     * What a connection's requests share, worked out once: its addresses as text, and the last Host it sent that
     * was accepted (a client sends the same one on every request of a connection).
     */
    private static final class Peers {
        private static final AttributeKey<Peers> KEY = AttributeKey.valueOf("medjava.peers");
        final String peer;
        final String local;
        volatile String acceptedHost;
        /** The connection's last remembered Basic login (its event loop is the only one to use it). */
        final ReadAuthentication.Remembered login = new ReadAuthentication.Remembered();

        private Peers(Channel connection) {
            this.peer = FrontServer.address(connection.remoteAddress());
            this.local = FrontServer.address(connection.localAddress());
        }

        static Peers of(ChannelHandlerContext ctx) {
            Channel connection = FrontServer.connection(ctx.channel());
            Peers peers = connection.attr(KEY).get();
            if (peers == null) { // its HTTP/2 streams may ask at once: either answer is the same
                peers = new Peers(connection);
                connection.attr(KEY).set(peers);
            }
            return peers;
        }
    }

    /** Whether the request's Host names this store ({@link HostCheck}). */
    private boolean hostAccepted(ChannelHandlerContext ctx, HttpRequest request) {
        String host = request.headers().get(HttpHeaderNames.HOST);
        Peers peers = Peers.of(ctx);
        if (host != null && host.equals(peers.acceptedHost)) {
            return true;
        }
        boolean accepted = hosts.accepts(host, peers.local);
        if (accepted) {
            peers.acceptedHost = host;
        }
        return accepted;
    }

    /**
     * Refuses an address the store cannot decode ({@link RequestPathCheck}), for every method: 400 with the reason and
     * its access log line. False when the path is fine.
     */
    boolean refusedPath(ChannelHandlerContext ctx, HttpRequest request, String rawPath, boolean keepAlive,
                        boolean secure) {
        long start = System.nanoTime();
        String problem = RequestPathCheck.problem(rawPath);
        if (problem == null) {
            return false;
        }
        boolean head = request.method() == HttpMethod.HEAD;
        boolean body = HttpUtil.getContentLength(request, 0L) != 0 || HttpUtil.isTransferEncodingChunked(request);
        byte[] json = ErrorBody.json(400, problem).getBytes(StandardCharsets.UTF_8);
        DefaultFullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.BAD_REQUEST, head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(json));
        common(response.headers(), secure);
        keepAliveHeader(response.headers(), keepAlive && !body, request.protocolVersion());
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                .set(HttpHeaderNames.CONTENT_LENGTH, json.length);
        // a body we will not read: the connection cannot be reused
        finish(ctx, response, keepAlive && !body);
        String method = request.method().name();
        long nanos = System.nanoTime() - start;
        int query = request.uri().indexOf('?');
        accessLog.record(Instant.now(), clientAddress(ctx, request), null, method, rawPath,
                query < 0 ? null : request.uri().substring(query + 1), 400, head ? 0 : json.length, nanos / 1_000_000);
        metrics.request(method, "unmatched", 400, nanos);
        return true;
    }

    /**
     * {@code /health/live} as {@link LivenessFilter} answers it behind the container (GET, HEAD or POST without a
     * body; {@code ?pretty}), without an access log line, as there; false, having written nothing, for anything else.
     */
    boolean liveness(ChannelHandlerContext ctx, HttpRequest request, String rawPath, boolean keepAlive,
                     boolean secure) {
        HttpMethod method = request.method();
        if (rawPath.length() != contextPath.length() + LivenessFilter.PATH.length()
                || !rawPath.startsWith(contextPath) || !rawPath.endsWith(LivenessFilter.PATH)
                || method != HttpMethod.GET && method != HttpMethod.HEAD && method != HttpMethod.POST
                || HttpUtil.getContentLength(request, 0L) != 0 || HttpUtil.isTransferEncodingChunked(request)
                || !hostAccepted(ctx, request)) {
            return false;
        }
        boolean pretty = false;
        if (rawPath.length() != request.uri().length()) {
            java.util.List<String> values = new QueryStringDecoder(request.uri()).parameters().get("pretty");
            pretty = values != null && !values.isEmpty() && !"false".equals(values.get(0));
        }
        LivenessFilter.Report report = liveness.apply(pretty);
        byte[] json = report.json();
        DefaultFullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                report.up() ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE,
                method == HttpMethod.HEAD ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(json));
        common(response.headers(), secure);
        keepAliveHeader(response.headers(), keepAlive, request.protocolVersion());
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                .set(HttpHeaderNames.CONTENT_LENGTH, json.length);
        finish(ctx, response, keepAlive);
        return true;
    }

    /** Answers a plain read and returns true, or returns false having written nothing. */
    boolean answer(ChannelHandlerContext ctx, HttpRequest request, String rawPath, boolean http2, boolean keepAlive,
                   boolean secure) throws IOException {
        long start = System.nanoTime();
        HttpMethod method = request.method();
        if (!serveFiles && !serveCached || method != HttpMethod.GET && method != HttpMethod.HEAD
                || rawPath.length() != request.uri().length() // a query, or not the origin form
                || !rawPath.startsWith(contextPath) || rawPath.indexOf(';') >= 0
                || HttpUtil.getContentLength(request, 0L) != 0 || HttpUtil.isTransferEncodingChunked(request)) {
            return false;
        }
        HttpHeaders headers = request.headers();
        String path = rawPath.substring(contextPath.length());
        if (!path.startsWith("/images/")) {
            return false;
        }
        String address = clientAddress(ctx, request);
        StoreAuthenticationMechanism.Verdict caller = reader(ctx, request, address);
        if (caller == null) {
            return false;
        }
        StoredFile file;
        FileChannel copy = null;
        if (serveFiles) {
            file = FileDownloadFilter.storedFile(images, path);
        } else {
            ImageRepository.Cached cached = FileDownloadFilter.cachedFile(images, path);
            file = cached == null ? null : cached.file();
            copy = cached == null ? null : cached.channel();
        }
        if (file == null) {
            return false;
        }
        // sendfile(2) writes the file's bytes as they are: not into an HTTP/2 stream's frames nor through TLS
        Exchange exchange = new Exchange(ctx, request, file, copy, http2 || secure, keepAlive, http2);
        try {
            common(exchange.headers, secure);
            FileDownload.send(exchange, FileDownloadFilter.entity(images, file));
            exchange.finish();
        } catch (IOException | RuntimeException e) {
            if (exchange.written) {
                throw e;
            }
            // gone since the stat, or unreadable, before anything was written: the container answers
            LOG.log(Level.FINE, "a direct read goes to the container after: {0}", e.toString());
            return false;
        } finally {
            exchange.closeChannel();
        }
        long nanos = System.nanoTime() - start;
        if (method == HttpMethod.GET && exchange.status / 100 == 2) { // counted only: see ReadAudit
            audit.file(Caller.account(caller.caller(), address), DOOR, file.path().relative());
        }
        accessLog.record(Instant.now(), address, caller.caller(), method.name(), rawPath, null, exchange.status,
                exchange.bytes, nanos / 1_000_000);
        (method == HttpMethod.GET ? getTimers : headTimers).record(exchange.status, nanos);
        return true;
    }

    /**
     * The caller of a read the front may answer itself; null when the container must decide: a Host it does not
     * accept, an {@code Origin} (CORS), a login to check more closely or refuse.
     */
    StoreAuthenticationMechanism.Verdict reader(ChannelHandlerContext ctx, HttpRequest request, String address) {
        HttpHeaders headers = request.headers();
        if (headers.contains(HttpHeaderNames.ORIGIN) || !hostAccepted(ctx, request)) {
            return null;
        }
        return callers.caller(headers.get(HttpHeaderNames.AUTHORIZATION), headers.get(HttpHeaderNames.COOKIE),
                address, Peers.of(ctx).login);
    }

    /** The headers the container's path adds to every answer (RequestGuardFilter, Payara). */
    static void common(HttpHeaders headers, boolean secure) {
        headers.set(HttpHeaderNames.SERVER, RequestGuardFilter.SERVER);
        RequestGuardFilter.securityHeaders(secure, headers::set);
        headers.set("X-Frame-Options", "SAMEORIGIN");
    }

    static String localAddress(ChannelHandlerContext ctx) {
        return Peers.of(ctx).local;
    }

    /** Where the reads answered on the front are counted for the audit trail. */
    ReadAudit audit() {
        return audit;
    }

    /** Lets go of the cached bytes (the application stops). */
    void close() {
        cache.clear();
    }

    /** Writes a whole answer; closes the connection after it unless kept alive. */
    static void finish(ChannelHandlerContext ctx, Object response, boolean keepAlive) {
        ChannelFuture written = ctx.writeAndFlush(response);
        if (!keepAlive) {
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** One answer being built by {@link FileDownload} and written to Netty. */
    private final class Exchange implements FileDownload.Exchange {
        private final ChannelHandlerContext ctx;
        private final HttpRequest request;
        private final boolean chunked;
        private final boolean keepAlive;
        private final HttpHeaders headers;
        private final StoredFile file;
        /** Opened only when the bytes are not in {@link #cache}, or the node's copy of an object, opened already. */
        private FileChannel channel;
        /** Whether anything of the answer has been written. */
        private boolean written;
        private int status = 200;
        private long bytes;
        /** An answer without the file: its error body, if any. */
        private ByteBuf body;
        /** The part of the file to send. */
        private long offset;
        private long length = -1;

        Exchange(ChannelHandlerContext ctx, HttpRequest request, StoredFile file, FileChannel copy, boolean chunked,
                 boolean keepAlive, boolean http2) {
            this.ctx = ctx;
            this.channel = copy;
            this.request = request;
            this.file = file;
            this.chunked = chunked;
            this.keepAlive = keepAlive;
            this.headers = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK).headers();
            if (!http2) {
                keepAliveHeader(headers, keepAlive, request.protocolVersion());
            }
        }

        @Override
        public String method() {
            return request.method().name();
        }

        @Override
        public String header(String name) {
            return request.headers().get(name);
        }

        @Override
        public void status(int status) {
            this.status = status;
        }

        @Override
        public void header(String name, String value) {
            headers.set(name, value);
        }

        @Override
        public void contentType(String type) {
            headers.set(HttpHeaderNames.CONTENT_TYPE, type);
        }

        @Override
        public void contentLength(long length) {
            headers.set(HttpHeaderNames.CONTENT_LENGTH, length);
        }

        @Override
        public OutputStream body() {
            if (body == null) {
                body = ctx.alloc().heapBuffer(256);
            }
            return new ByteBufOutputStream(body);
        }

        @Override
        public void sendBody(FileDownload.Body file, long offset, long length) {
            this.offset = offset;
            this.length = length;
        }

        void finish() throws IOException {
            HttpResponseStatus code = HttpResponseStatus.valueOf(status);
            if (length <= 0) { // no file bytes: headers and any error body
                ByteBuf content = body == null ? Unpooled.EMPTY_BUFFER : body;
                bytes = content.readableBytes();
                body = null;
                if (request.method() == HttpMethod.HEAD && content.isReadable()) { // FileDownload writes none
                    content.release();
                    content = Unpooled.EMPTY_BUFFER;
                }
                written = true;
                FrontReads.finish(ctx, new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, code, content, headers,
                        io.netty.handler.codec.http.EmptyHttpHeaders.INSTANCE), keepAlive);
                return;
            }
            bytes = length;
            if (length <= SMALL) {
                ByteBuf content;
                if (cache.holds(file.size())) {
                    ByteBuf whole = cache.bytes(file.path().relative(), file.etag(), file.size(), this::open,
                            ctx.alloc());
                    content = length == file.size() ? whole : whole.retainedSlice((int) offset, (int) length);
                    if (content != whole) {
                        whole.release();
                    }
                } else {
                    content = SmallFileCache.read(open(), offset, length, ctx.alloc());
                }
                written = true;
                FrontReads.finish(ctx, new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, code, content, headers,
                        io.netty.handler.codec.http.EmptyHttpHeaders.INSTANCE), keepAlive);
                return;
            }
            FileChannel bytes = open();
            channel = null; // the write owns it now
            written = true;
            ctx.write(new DefaultHttpResponse(HttpVersion.HTTP_1_1, code, headers));
            if (!chunked) {
                // corked, as nginx's tcp_nopush: the kernel sends only full segments of what sendfile(2) gives it
                // while the socket's buffer drains, not a small one after each call that found a little room
                boolean cork = ctx.channel() instanceof EpollSocketChannel;
                if (cork) {
                    ((EpollSocketChannel) ctx.channel()).config().setTcpCork(true);
                }
                ctx.write(new DefaultFileRegion(bytes, offset, length)); // sendfile(2); the region closes the file
                ChannelFuture sent = ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
                if (cork) {
                    sent.addListener(f -> uncork(ctx.channel()));
                }
                if (!keepAlive) {
                    sent.addListener(ChannelFutureListener.CLOSE);
                }
            } else {
                FrontReads.finish(ctx, new HttpChunkedInput(new ChunkedNioFile(bytes, offset, length, CHUNK)),
                        keepAlive);
            }
        }

        private static void uncork(Channel connection) {
            if (connection.isOpen()) {
                ((EpollSocketChannel) connection).config().setTcpCork(false);
            }
        }

        private FileChannel open() throws IOException {
            if (channel == null) {
                channel = images.openChannel(file).orElseThrow(() -> new IOException("not a local file"));
            }
            return channel;
        }

        void closeChannel() {
            if (body != null) {
                body.release();
                body = null;
            }
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException e) {
                    LOG.log(Level.FINE, "closing a read file", e);
                }
                channel = null;
            }
        }
    }

    /** So HTTP/1.0 clients and "Connection: close" get what they asked for. */
    static void keepAliveHeader(HttpHeaders headers, boolean keepAlive, HttpVersion version) {
        if (!keepAlive) {
            headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        } else if (!version.isKeepAliveDefault()) {
            headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
    }
}
