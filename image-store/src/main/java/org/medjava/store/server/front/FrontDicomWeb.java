package org.medjava.store.server.front;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.DefaultFileRegion;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpChunkedInput;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.stream.ChunkedNioFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.net.dicomweb.AcceptHeader;
import org.medjava.store.net.dicomweb.RenderedImages;
import org.medjava.store.net.dicomweb.WadoService;
import org.medjava.store.server.config.RenderSettings;
import org.medjava.store.server.filter.EndpointTemplate;
import org.medjava.store.server.filter.FileDownload;
import org.medjava.store.server.logging.AccessLog;
import org.medjava.store.server.monitoring.RegistryMetrics;
import org.medjava.store.server.rest.DicomWebResource;
import org.medjava.store.server.rest.FilterRuns;
import org.medjava.store.server.security.StoreAuthenticationMechanism;

/**
 * The DICOMweb reads the front answers itself: WADO-RS frames and thumbnails (of a study, series, instance or
 * frame), what a viewer asks for most while a study opens. The answers are {@link WadoService}'s and
 * {@link RenderedImages}' — what {@link DicomWebResource} answers behind the container — worked out on the front's
 * own few threads ({@code medjava-front-reads}: the index is asked, a thumbnail may be made), never on an event
 * loop, and written on the connection's event loop: frames that lie in the stored file as they are sent
 * ({@link WadoService.InPlace}) go out from it, with sendfile(2) over HTTP/1.1. Anything else — an error to explain,
 * HEAD, an {@code Origin}, frames to convert or in a byte range, a precondition other than If-None-Match, the
 * threads all busy — is left to the container, which decides it in full ({@link Done#done} false, nothing written).
 */
final class FrontDicomWeb {
    private static final Logger LOG = Logger.getLogger(FrontDicomWeb.class.getName());
    private static final String BASE = "/dicomweb/studies/";
    private static final String CACHE_CONTROL = "private, no-cache"; // as DicomWebResource's rendered images
    /** What a thumbnail takes ({@link RenderedImages#thumbnail}, {@link FilterRuns#timeout}). */
    private static final java.util.Set<String> THUMBNAIL_PARAMETERS = java.util.Set.of("viewport", FilterRuns.TIMEOUT);

    /** How a read the front took up ended, told on the connection's event loop. */
    @FunctionalInterface
    interface Done {
        /** True: answered (or the client went away); false: nothing written, the container is to answer. */
        void done(boolean answered);
    }

    /** The resources answered here, with their endpoint templates (as {@link EndpointTemplate} names them). */
    private enum Resource {
        FRAMES("/dicomweb/studies/{study}/series/{series}/instances/{instance}/frames/{frames}"),
        STUDY_THUMBNAIL("/dicomweb/studies/{study}/thumbnail"),
        SERIES_THUMBNAIL("/dicomweb/studies/{study}/series/{series}/thumbnail"),
        INSTANCE_THUMBNAIL("/dicomweb/studies/{study}/series/{series}/instances/{instance}/thumbnail"),
        FRAME_THUMBNAIL("/dicomweb/studies/{study}/series/{series}/instances/{instance}/frames/{frame}/thumbnail");

        final String template;

        Resource(String template) {
            this.template = template;
        }
    }

    /** An answer worked out off the event loop, and the instance it is of (for the audit trail). */
    private record Answer(int status, String contentType, String etag, WadoService.InPlace inPlace, byte[] bytes,
                          InstanceSummary of) {
        void release() {
            if (inPlace != null) {
                try {
                    inPlace.close();
                } catch (IOException e) {
                    LOG.log(Level.FINE, "closing a stored file", e);
                }
            }
        }
    }

    private final String contextPath;
    private final FrontReads reads;
    private final WadoService wado;
    private final RenderedImages rendering;
    private final RenderSettings config;
    private final AccessLog accessLog;
    private final Map<Resource, RegistryMetrics.EndpointTimers> timers = new java.util.EnumMap<>(Resource.class);
    private final ThreadPoolExecutor workers;

    FrontDicomWeb(String contextPath, FrontReads reads, WadoService wado, RenderedImages rendering,
                  RenderSettings config, AccessLog accessLog, RegistryMetrics metrics) {
        this.contextPath = contextPath;
        this.reads = reads;
        this.wado = wado;
        this.rendering = rendering;
        this.config = config;
        this.accessLog = accessLog;
        for (Resource r : Resource.values()) {
            timers.put(r, metrics.endpointTimers("GET", r.template, true));
        }
        int threads = Runtime.getRuntime().availableProcessors();
        AtomicInteger count = new AtomicInteger();
        // bounded: what does not fit goes to the container, whose own limit answers 503 with Retry-After
        this.workers = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(64 * threads), r -> {
                    Thread t = new Thread(r, "medjava-front-reads-" + count.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }

    /**
     * Takes up a DICOMweb read and returns true ({@code done} is told how it ended), or returns false having done
     * nothing when it is not one answered here.
     */
    boolean start(ChannelHandlerContext ctx, HttpRequest request, String rawPath, boolean http2, boolean keepAlive,
                  boolean secure, Done done) {
        if (request.method() != HttpMethod.GET || !rawPath.startsWith(contextPath)
                || !rawPath.startsWith(BASE, contextPath.length()) || rawPath.indexOf('%') >= 0
                || rawPath.indexOf(';') >= 0 || HttpUtil.getContentLength(request, 0L) != 0
                || HttpUtil.isTransferEncodingChunked(request)) {
            return false;
        }
        String[] s = rawPath.substring(contextPath.length() + BASE.length()).split("/", -1);
        Resource resource = resource(s);
        boolean query = rawPath.length() != request.uri().length();
        HttpHeaders headers = request.headers();
        if (resource == null || resource == Resource.FRAMES && (query || headers.contains(HttpHeaderNames.RANGE))
                || headers.contains(HttpHeaderNames.IF_MATCH)
                || headers.contains(HttpHeaderNames.IF_UNMODIFIED_SINCE)) {
            return false;
        }
        for (String segment : s) {
            if (segment.isEmpty()) {
                return false;
            }
        }
        AcceptHeader accept;
        try {
            accept = AcceptHeader.parse(headers.get(HttpHeaderNames.ACCEPT));
        } catch (IllegalArgumentException e) {
            return false; // the container explains it
        }
        String address = reads.clientAddress(ctx, request);
        StoreAuthenticationMechanism.Verdict caller = reads.reader(ctx, request, address);
        if (caller == null) {
            return false;
        }
        long start = System.nanoTime();
        Map<String, List<String>> parameters = query ? new QueryStringDecoder(request.uri()).parameters() : Map.of();
        if (!THUMBNAIL_PARAMETERS.containsAll(parameters.keySet())) {
            return false; // the container says what it makes of them
        }
        String ifNoneMatch = headers.get(HttpHeaderNames.IF_NONE_MATCH);
        try {
            workers.execute(() -> {
                Answer answer = work(resource, s, parameters, accept, ifNoneMatch);
                try {
                    ctx.executor().execute(() -> finish(ctx, request, rawPath, http2, keepAlive, secure, answer,
                            resource, address, caller, start, done));
                } catch (RejectedExecutionException e) { // the front is closing
                    if (answer != null) {
                        answer.release();
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            return false;
        }
        return true;
    }

    private static Resource resource(String[] s) {
        return switch (s.length) {
            case 2 -> s[1].equals("thumbnail") ? Resource.STUDY_THUMBNAIL : null;
            case 4 -> s[1].equals("series") && s[3].equals("thumbnail") ? Resource.SERIES_THUMBNAIL : null;
            case 6 -> s[1].equals("series") && s[3].equals("instances") && s[5].equals("thumbnail")
                    ? Resource.INSTANCE_THUMBNAIL : null;
            case 7 -> s[1].equals("series") && s[3].equals("instances") && s[5].equals("frames")
                    ? Resource.FRAMES : null;
            case 8 -> s[1].equals("series") && s[3].equals("instances") && s[5].equals("frames")
                    && s[7].equals("thumbnail") ? Resource.FRAME_THUMBNAIL : null;
            default -> null;
        };
    }

    /** The answer, on a worker; null when the container is to give it (a refusal, an error, a form not in place). */
    private Answer work(Resource resource, String[] s, Map<String, List<String>> query, AcceptHeader accept,
                        String ifNoneMatch) {
        try {
            if (resource == Resource.FRAMES) {
                InstanceSummary i = wado.select(s[0], s[2], s[4]).get(0);
                WadoService.Body body = wado.frames(i, DicomWebResource.frameList(s[6]), accept);
                return body.inPlace() == null ? null
                        : new Answer(200, body.contentType(), null, body.inPlace(), null, i);
            }
            List<InstanceSummary> instances = wado.select(s[0], resource == Resource.STUDY_THUMBNAIL ? null : s[2],
                    resource == Resource.INSTANCE_THUMBNAIL || resource == Resource.FRAME_THUMBNAIL ? s[4] : null);
            RenderedImages.Image image = rendering.thumbnail(instances, resource == Resource.FRAME_THUMBNAIL
                    ? DicomWebResource.oneFrame(s[6]) : null, query, accept);
            String etag = "\"" + image.etag() + "\"";
            if (ifNoneMatch != null && FileDownload.matches(ifNoneMatch, etag, true)) {
                return new Answer(304, null, etag, null, null, instances.get(0));
            }
            byte[] made = FilterRuns.run(null, null, query, config, control -> image.maker().make(control));
            return new Answer(200, image.contentType(), etag, null, made, instances.get(0));
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "a DICOMweb read goes to the container after: {0}", e.toString());
            return null;
        }
    }

    /** On the event loop: writes the answer, or tells the handler to relay the request. */
    private void finish(ChannelHandlerContext ctx, HttpRequest request, String rawPath, boolean http2,
                        boolean keepAlive, boolean secure, Answer answer, Resource resource, String address,
                        StoreAuthenticationMechanism.Verdict caller, long start, Done done) {
        if (answer == null) {
            done.done(false);
            return;
        }
        if (!ctx.channel().isActive()) {
            answer.release();
            done.done(true);
            return;
        }
        long bytes;
        try {
            bytes = write(ctx, request, http2, keepAlive, secure, answer);
        } catch (IOException e) { // the stored file failed before anything was written
            answer.release();
            LOG.log(Level.FINE, "a DICOMweb read goes to the container after: {0}", e.toString());
            done.done(false);
            return;
        }
        long nanos = System.nanoTime() - start;
        if (answer.status == 200) { // counted only: see ReadAudit
            reads.audit().read(Caller.account(caller.caller(), address), FrontReads.DOOR,
                    answer.of.studyInstanceUid(), answer.of.patientId(), 1);
        }
        int q = request.uri().indexOf('?');
        accessLog.record(Instant.now(), address, caller.caller(), "GET", rawPath,
                q < 0 ? null : request.uri().substring(q + 1), answer.status, bytes, nanos / 1_000_000);
        timers.get(resource).record(answer.status, nanos);
        done.done(true);
    }

    /** Writes the answer; its length. Throws, having written nothing, when the stored file cannot be read. */
    private long write(ChannelHandlerContext ctx, HttpRequest request, boolean http2, boolean keepAlive,
                       boolean secure, Answer answer) throws IOException {
        HttpHeaders headers = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK).headers();
        FrontReads.common(headers, secure);
        if (!http2) {
            FrontReads.keepAliveHeader(headers, keepAlive, request.protocolVersion());
        }
        headers.set(HttpHeaderNames.VARY, "Accept"); // as the container writes it
        if (answer.etag != null) {
            headers.set(HttpHeaderNames.ETAG, answer.etag).set(HttpHeaderNames.CACHE_CONTROL, CACHE_CONTROL);
        }
        HttpResponseStatus status = HttpResponseStatus.valueOf(answer.status);
        if (answer.inPlace == null) {
            ByteBuf body = answer.bytes == null ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(answer.bytes);
            if (answer.contentType != null) {
                headers.set(HttpHeaderNames.CONTENT_TYPE, answer.contentType);
            }
            if (answer.status != 304) {
                headers.set(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
            }
            FrontReads.finish(ctx, new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body, headers,
                    EmptyHttpHeaders.INSTANCE), keepAlive);
            return body.readableBytes();
        }
        WadoService.InPlace body = answer.inPlace;
        long length = body.length();
        headers.set(HttpHeaderNames.CONTENT_TYPE, answer.contentType).set(HttpHeaderNames.CONTENT_LENGTH, length);
        List<WadoService.Segment> segments = body.segments();
        int last = -1; // the last range is sent from the file; what is around it from buffers
        for (int n = 0; n < segments.size(); n++) {
            if (segments.get(n).bytes() == null) {
                last = n;
            }
        }
        if (length <= FrontReads.SMALL || last < 0) {
            ByteBuf all = read(ctx, body, segments, 0, segments.size(), length);
            body.close();
            FrontReads.finish(ctx, new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, all, headers,
                    EmptyHttpHeaders.INSTANCE), keepAlive);
            return length;
        }
        WadoService.Segment range = segments.get(last);
        ByteBuf before = read(ctx, body, segments, 0, last, length);
        ByteBuf after;
        try {
            after = read(ctx, body, segments, last + 1, segments.size(), length);
        } catch (IOException e) {
            before.release();
            throw e;
        }
        ctx.write(new DefaultHttpResponse(HttpVersion.HTTP_1_1, status, headers));
        if (before.isReadable()) {
            ctx.write(new DefaultHttpContent(before));
        } else {
            before.release();
        }
        FileChannel file = body.file(); // the region or the chunked input closes it
        if (!http2 && !secure) {
            ctx.write(new DefaultFileRegion(file, range.offset(), range.length())); // sendfile(2)
            FrontReads.finish(ctx, new DefaultLastHttpContent(after), keepAlive);
        } else {
            FrontReads.finish(ctx, new HttpChunkedInput(new ChunkedNioFile(file, range.offset(), range.length(),
                    FrontReads.CHUNK), new DefaultLastHttpContent(after)), keepAlive);
        }
        return length;
    }

    /** Segments {@code from} to {@code to} (excluded) in one buffer. */
    private static ByteBuf read(ChannelHandlerContext ctx, WadoService.InPlace body,
                                List<WadoService.Segment> segments, int from, int to, long limit) throws IOException {
        long size = 0;
        for (int n = from; n < to; n++) {
            size += segments.get(n).length();
        }
        ByteBuf buf = ctx.alloc().buffer((int) Math.min(size, limit));
        try {
            for (int n = from; n < to; n++) {
                WadoService.Segment s = segments.get(n);
                if (s.bytes() != null) {
                    buf.writeBytes(s.bytes());
                    continue;
                }
                SmallFileCache.readInto(body.file(), s.offset(), (int) s.length(), buf);
            }
            return buf;
        } catch (IOException | RuntimeException e) {
            buf.release();
            throw e;
        }
    }

    /** Lets the threads go (the application stops). */
    void close() {
        workers.shutdownNow();
    }
}
