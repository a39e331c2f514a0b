package org.medjava.store.server.filter;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.store.server.http.ByteRange;
import org.medjava.store.server.http.ErrorBody;

/**
 * One stored file as an HTTP answer, on the servlet API or on the front's ({@link org.medjava.store.server.front.FrontReads}): conditional requests
 * (RFC 9110 §13: If-Match, If-Unmodified-Since, If-None-Match, If-Modified-Since, evaluated in that order), one byte
 * range with If-Range ({@link ByteRange}), then the bytes. A client hanging up mid-body ends the body at the first failed write with one
 * FINE line, as {@link ClientGoneInterceptor} does for JAX-RS answers; errors reading storage propagate.
 */
public final class FileDownload {
    private static final Logger LOG = Logger.getLogger(FileDownload.class.getName());
    private static final int CHUNK = 256 * 1024;
    /** RFC 9110's IMF-fixdate (two-digit day; {@code RFC_1123_DATE_TIME} writes one digit for days below 10). */
    private static final DateTimeFormatter HTTP_DATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ENGLISH).withZone(ZoneOffset.UTC);

    private FileDownload() {
    }

    /** What is sent: the file's validators, type and bytes. */
    public record Entity(long size, Instant modified, String etag, String contentType, Body body) {
    }

    /** Opens a byte range of the file (the caller closes it). */
    @FunctionalInterface
    public interface Body {
        InputStream open(long offset, long length) throws IOException;
    }

    /** The request and response a download reads and writes: the servlet API's, or the front's (Netty). */
    public interface Exchange {
        String method();

        /** A request header, null when absent. */
        String header(String name);

        void status(int status);

        void header(String name, String value);

        void contentType(String type);

        void contentLength(long length);

        OutputStream body() throws IOException;

        /** Sends {@code length} bytes of the file from {@code offset}, after the headers: copied through {@link #body()}. */
        default void sendBody(Body file, long offset, long length) throws IOException {
            try (InputStream in = file.open(offset, length)) {
                copy(in, body(), length);
            }
        }
    }

    static Exchange of(HttpServletRequest request, HttpServletResponse response) {
        return new Exchange() {
            @Override
            public String method() {
                return request.getMethod();
            }

            @Override
            public String header(String name) {
                return request.getHeader(name);
            }

            @Override
            public void status(int status) {
                response.setStatus(status);
            }

            @Override
            public void header(String name, String value) {
                response.setHeader(name, value);
            }

            @Override
            public void contentType(String type) {
                response.setContentType(type);
            }

            @Override
            public void contentLength(long length) {
                response.setContentLengthLong(length);
            }

            @Override
            public OutputStream body() throws IOException {
                return response.getOutputStream();
            }
        };
    }

    public static void send(Exchange exchange, Entity file) throws IOException {
        boolean head = "HEAD".equals(exchange.method());
        long modifiedSecond = file.modified().getEpochSecond(); // HTTP dates have whole seconds
        int precondition = precondition(exchange, file.etag(), modifiedSecond);
        if (precondition == 304) {
            exchange.status(304);
            exchange.header("ETag", file.etag());
            exchange.header("Last-Modified", httpDate(modifiedSecond));
            return;
        }
        if (precondition == 412) {
            error(exchange, head, 412, "the file's current version does not match the request's preconditions");
            return;
        }
        ByteRange range = null;
        if (rangeApplies(exchange.header("If-Range"), file.etag(), modifiedSecond)) {
            try {
                range = ByteRange.parse(exchange.header("Range"), file.size());
            } catch (ByteRange.Unsatisfiable e) {
                exchange.header("Content-Range", "bytes */" + file.size());
                error(exchange, head, 416, "the range " + exchange.header("Range") + " is outside the file ("
                        + file.size() + " bytes)");
                return;
            }
        }
        long start = range == null ? 0 : range.start();
        long length = range == null ? file.size() : range.length();
        if (range != null) {
            exchange.status(206);
            exchange.header("Content-Range", "bytes " + range.start() + "-" + range.end() + "/" + file.size());
        }
        exchange.contentType(file.contentType());
        exchange.header("ETag", file.etag());
        exchange.header("Last-Modified", httpDate(modifiedSecond));
        exchange.header("Accept-Ranges", "bytes");
        exchange.contentLength(length);
        if (head || length == 0) {
            return;
        }
        exchange.sendBody(file.body(), start, length);
    }

    /** 0 to go on, 304 or 412. */
    static int precondition(Exchange request, String etag, long modifiedSecond) {
        boolean read = "GET".equals(request.method()) || "HEAD".equals(request.method());
        String ifMatch = request.header("If-Match");
        if (ifMatch != null) {
            if (!matches(ifMatch, etag, false)) {
                return 412;
            }
        } else {
            long since = date(request.header("If-Unmodified-Since"));
            if (since != Long.MIN_VALUE && modifiedSecond > since) {
                return 412;
            }
        }
        String ifNoneMatch = request.header("If-None-Match");
        if (ifNoneMatch != null) {
            if (matches(ifNoneMatch, etag, true)) {
                return read ? 304 : 412;
            }
        } else if (read) {
            long since = date(request.header("If-Modified-Since"));
            if (since != Long.MIN_VALUE && modifiedSecond <= since) {
                return 304;
            }
        }
        return 0;
    }

    /** A Range is honoured without If-Range, or when If-Range names this version (strong ETag, or the exact date). */
    static boolean rangeApplies(String ifRange, String etag, long modifiedSecond) {
        if (ifRange == null) {
            return true;
        }
        String v = ifRange.trim();
        if (v.startsWith("\"") || v.startsWith("W/")) {
            return v.equals(etag) && !etag.startsWith("W/");
        }
        return date(v) == modifiedSecond;
    }

    /** An If-Match / If-None-Match list against the ETag: {@code *}, or any member (weak comparison if asked). */
    public static boolean matches(String header, String etag, boolean weak) {
        String h = header.trim();
        if (h.equals("*")) {
            return true;
        }
        String own = weak ? opaque(etag) : etag;
        for (String member : h.split(",")) {
            String m = member.trim();
            if (weak ? opaque(m).equals(own) : m.equals(own) && !m.startsWith("W/")) {
                return true;
            }
        }
        return false;
    }

    private static String opaque(String tag) {
        return tag.startsWith("W/") ? tag.substring(2) : tag;
    }

    /** An HTTP date in epoch seconds; {@link Long#MIN_VALUE} when absent or not a date (the header is ignored). */
    static long date(String header) {
        if (header == null) {
            return Long.MIN_VALUE;
        }
        try {
            return ZonedDateTime.parse(header.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toEpochSecond();
        } catch (DateTimeParseException e) {
            return Long.MIN_VALUE;
        }
    }

    private static void copy(InputStream in, OutputStream out, long length) throws IOException {
        byte[] buffer = new byte[(int) Math.min(CHUNK, length)];
        long written = 0;
        for (int n; (n = in.readNBytes(buffer, 0, buffer.length)) > 0; ) {
            try {
                out.write(buffer, 0, n);
            } catch (IOException gone) {
                LOG.log(Level.FINE, "the client went after {0} bytes of the body: {1}",
                        new Object[] {written, gone.toString()});
                return;
            }
            written += n;
        }
    }

    private record FormattedDate(long epochSecond, String text) {
    }

    /** The last date formatted: a viewer reads the same files again and again (formatting was ~5% of a read). */
    private static volatile FormattedDate lastDate = new FormattedDate(Long.MIN_VALUE, "");

    static String httpDate(long epochSecond) {
        FormattedDate last = lastDate;
        if (last.epochSecond() != epochSecond) {
            last = new FormattedDate(epochSecond, HTTP_DATE.format(Instant.ofEpochSecond(epochSecond)));
            lastDate = last;
        }
        return last.text();
    }

    private static void error(Exchange response, boolean head, int status, String message) throws IOException {
        response.status(status);
        response.contentType("application/json");
        byte[] body = ErrorBody.json(status, message).getBytes(StandardCharsets.UTF_8);
        response.contentLength(body.length);
        if (!head) {
            response.body().write(body);
        }
    }
}
