package org.medjava.store.server.logging;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Logger;
import org.medjava.store.core.audit.RotatingFile;

/**
 * The HTTP access log {@code <data-dir>/logs/access.log}, one request a line:
 * <pre>2025-11-03T10:15:30.123+01:00 10.0.0.5 admin GET /dicomweb/studies?PatientName=***&amp;limit=20 200 5120 12</pre>
 * time (ISO 8601 with offset), the client's address, the user ({@code -} without a login), method, path, status,
 * bytes sent, milliseconds. What could name a patient is never written: query values are kept only for the
 * store's own parameters ({@link #KEPT}), all others (PatientName, PatientID, any DICOM matching key) show as
 * {@code ***}; the Patient ID segment of {@code /images/dicom/<PatientID>/…} is written as {@code *}. Writing
 * never fails a request: trouble is reported once.
 *
 * <p>A request only queues its line's fields; one writer thread formats and appends what is queued every
 * {@link #WRITE_EVERY_MILLIS} ms with one flush. Writing and flushing per request, under the file's lock, had the
 * request threads of a busy store queue for that lock (JFR: the most contended monitor under small GETs). A crash loses at most the last
 * few milliseconds of lines; a full queue ({@link #MAX_QUEUED}) makes the request write its line itself.
 */
public final class AccessLog implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(AccessLog.class.getName());
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX");

    /** Query parameters whose values are the store's own options, never patient data. */
    static final Set<String> KEPT = Set.of("render", "filter", "window", "region", "frame", "impl", "limit",
            "offset", "includefield", "fuzzymatching", "orderby", "token", "accept", "quality", "viewport",
            "annotation", "charset");
    static final String REDACTED = "***";

    static final long WRITE_EVERY_MILLIS = 10;
    static final int MAX_QUEUED = 10_000;

    private final RotatingFile file;
    private final ZoneId zone;
    private volatile boolean troubled;
    /** Lines not yet formatted: the writer thread formats them, not the request's. */
    private final ConcurrentLinkedQueue<Entry> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final Thread writer;
    private volatile boolean closed;

    public AccessLog(RotatingFile file) {
        this(file, ZoneId.systemDefault());
    }

    AccessLog(RotatingFile file, ZoneId zone) {
        this.file = file;
        this.zone = zone;
        this.writer = new Thread(this::writeQueued, "medjava-access-log");
        writer.setDaemon(true);
        writer.start();
    }

    public void record(Instant time, String address, String user, String method, String rawPath, String rawQuery,
                       int status, long bytes, long millis) {
        Entry entry = new Entry(time, address, user, method, rawPath, rawQuery, status, bytes, millis);
        if (closed || queued.incrementAndGet() > MAX_QUEUED) {
            if (!closed) {
                queued.decrementAndGet();
            }
            write(List.of(entry.line(this)));
        } else {
            queue.add(entry);
        }
    }

    private record Entry(Instant time, String address, String user, String method, String rawPath, String rawQuery,
                         int status, long bytes, long millis) {
        String line(AccessLog log) {
            return log.line(time, address, user, method, rawPath, rawQuery, status, bytes, millis);
        }
    }

    /** The writer thread: what was queued, every few milliseconds, until closed. */
    private void writeQueued() {
        while (!closed) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(WRITE_EVERY_MILLIS));
            drain();
        }
    }

    private void drain() {
        List<String> lines = new ArrayList<>();
        for (Entry entry; (entry = queue.poll()) != null; ) {
            queued.decrementAndGet();
            lines.add(entry.line(this));
        }
        if (!lines.isEmpty()) {
            write(lines);
        }
    }

    private void write(List<String> lines) {
        try {
            file.writeLines(lines);
            troubled = false;
        } catch (IOException | RuntimeException e) {
            if (!troubled) {
                troubled = true;
                LOG.warning("cannot write the access log " + file.path() + " (" + e.getMessage() + ")");
            }
        }
    }

    String line(Instant time, String address, String user, String method, String rawPath, String rawQuery,
                int status, long bytes, long millis) {
        return time(time) + ' ' + token(address) + ' '
                + token(user) + ' ' + token(method) + ' ' + target(rawPath, rawQuery) + ' ' + status + ' '
                + Math.max(0, bytes) + ' ' + Math.max(0, millis);
    }

    private record FormattedTime(long epochMilli, String text) {
    }

    /** The last time written: a busy store writes many lines within one millisecond. */
    private volatile FormattedTime lastTime = new FormattedTime(Long.MIN_VALUE, "");

    private String time(Instant time) {
        long milli = time.toEpochMilli();
        FormattedTime last = lastTime;
        if (last.epochMilli() != milli) {
            last = new FormattedTime(milli, TIME.format(Instant.ofEpochMilli(milli).atZone(zone)));
            lastTime = last;
        }
        return last.text();
    }

    /** The path as requested (still percent-encoded) with the query's values redacted where they could be data. */
    static String target(String rawPath, String rawQuery) {
        String path = rawPath == null || rawPath.isEmpty() ? "/" : rawPath;
        int dicom = indexOfIgnoringCase(path, DICOM_TREE);
        if (dicom >= 0) { // /images/dicom/<PatientID>/<StudyUID>/… : the Patient ID goes
            int start = dicom + DICOM_TREE.length();
            int end = path.indexOf('/', start);
            if (start < path.length() && end != start) {
                path = path.substring(0, start) + "*" + (end < 0 ? "" : path.substring(end));
            }
        }
        StringBuilder b = new StringBuilder(safe(path));
        if (rawQuery != null && !rawQuery.isEmpty()) {
            b.append('?');
            String[] pairs = rawQuery.split("&");
            for (int i = 0; i < pairs.length; i++) {
                if (i > 0) {
                    b.append('&');
                }
                int eq = pairs[i].indexOf('=');
                String key = eq < 0 ? pairs[i] : pairs[i].substring(0, eq);
                b.append(safe(key));
                if (eq >= 0) {
                    b.append('=').append(KEPT.contains(key.toLowerCase(Locale.ROOT))
                            ? safe(pairs[i].substring(eq + 1)) : REDACTED);
                }
            }
        }
        return b.toString();
    }

    private static final String DICOM_TREE = "/images/dicom/";

    private static int indexOfIgnoringCase(String s, String part) {
        for (int i = 0; i + part.length() <= s.length(); i++) {
            if (s.regionMatches(true, i, part, 0, part.length())) {
                return i;
            }
        }
        return -1;
    }

    private static String token(String s) {
        return s == null || s.isEmpty() ? "-" : safe(s);
    }

    /** Printable ASCII without spaces (others percent-encoded as UTF-8), so a line splits on spaces. */
    static String safe(String s) {
        if (plain(s)) {
            return s; // the usual case: nothing to encode, nothing to copy
        }
        StringBuilder b = new StringBuilder(s.length());
        for (byte c : s.getBytes(StandardCharsets.UTF_8)) {
            if (c > 0x20 && c < 0x7F && c != '"') {
                b.append((char) c);
            } else {
                b.append('%').append(String.format("%02X", c & 0xFF));
            }
        }
        return b.toString();
    }

    private static boolean plain(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x20 || c >= 0x7F || c == '"') {
                return false;
            }
        }
        return true;
    }

    /** Writes what is queued and closes the file (lines recorded later are written one by one). */
    @Override
    public void close() throws IOException {
        closed = true;
        LockSupport.unpark(writer);
        try {
            writer.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        drain();
        file.close();
    }
}
