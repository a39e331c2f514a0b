package org.medjava.store.core.ingest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The intent journal of one store node: before a write changes a stored object (the rename of a PUT, STOW-RS or
 * C-STORE into place, a DELETE), the node records "about to change path P" and forces that record to disk; once the
 * index row of P is committed it records "done". A crash between the two leaves an open intent, and the next start
 * {@linkplain Reconciliation reconciles} it: the index row of P is made to agree with whatever object P holds now
 * (indexed again from it, or removed when P holds nothing indexable). That is <em>roll forward</em>: the object is
 * the truth, it was complete and forced to disk before its rename, so a write interrupted after the rename becomes a
 * complete write, one interrupted before it leaves the old object with its old row.
 *
 * <p>Why roll forward from a per-path record rather than a rollback with the old bytes kept: it costs one small
 * fsync per write (shared by concurrent writers: group commit) and no copy of the old object, works the same for
 * files and S3 (nothing but the object at P is consulted), and reconciling an intent twice is harmless, so a lost
 * "done" record only costs a re-index at start. The "done" records are not forced.
 *
 * <p>Each node keeps its own journal in its own data directory, so a node's start only reconciles the writes it was
 * doing itself; and it reconciles each path under that path's lock (the cluster's advisory lock), so it waits for a
 * live node writing the same path and then indexes the object that write left — it never undoes another node's
 * write.
 *
 * <p>Format: a text file {@value #LOG} of lines {@code B <id> <op> <path> <sop-instance-uid|->} and
 * {@code D <id>}, path and UID URL-encoded. A torn last line (a crash while appending) was never forced, so its
 * write never began. When the file grows past {@link #rotateBytes} it is rewritten with the open intents only.
 * At start the open intents of the previous run move to {@value #RECOVERING}, which is removed once they are
 * reconciled (those that cannot be yet are carried into the new log as unsettled). An intent whose write ended while
 * the index was away stays open as {@linkplain #unsettled() unsettled}, and the store settles it within seconds of
 * the index coming back ({@link Reconciliation#settle}), not at its next start. Thread-safe.
 */
public final class IntentJournal implements AutoCloseable {

    static final String LOG = "intents.log";
    static final String RECOVERING = "intents.recovering";

    /** What an intent is about to do to its path. */
    public enum Op { PUT, DELETE }

    /** One write in progress: about to change {@code path}. */
    public record Intent(long id, Op op, String path, String sopInstanceUid) {
        String line() {
            return "B " + id + " " + op + " " + encode(path) + " " + (sopInstanceUid == null ? "-"
                    : encode(sopInstanceUid)) + "\n";
        }
    }

    /** A journal that records nothing: for stores used without crash recovery (tests, tools). */
    public static final IntentJournal NONE = new IntentJournal();

    private final Path dir;
    private final long rotateBytes;
    private final List<Intent> leftOver;
    private final AtomicLong ids = new AtomicLong();
    /** The open intents, by id, in order: what a rotation writes again. Guarded by {@code this}. */
    private final Map<Long, Intent> open = new LinkedHashMap<>();
    /** The ids of open intents whose write has ended without the index agreeing: to settle. Guarded by this. */
    private final java.util.Set<Long> unsettled = new java.util.LinkedHashSet<>();
    private final Object syncLock = new Object();
    private FileChannel channel; // guarded by this
    private long appended; // records appended, guarded by this
    private long synced; // records forced to disk, guarded by syncLock

    private IntentJournal() {
        this.dir = null;
        this.rotateBytes = Long.MAX_VALUE;
        this.leftOver = List.of();
    }

    private IntentJournal(Path dir, long rotateBytes, List<Intent> leftOver, long nextId) throws IOException {
        this.dir = dir;
        this.rotateBytes = rotateBytes;
        this.leftOver = List.copyOf(leftOver);
        this.ids.set(nextId);
        this.channel = FileChannel.open(dir.resolve(LOG), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
    }

    /** Opens the journal in {@code dir} (created when missing); see {@link #leftOver} for what a crash left. */
    public static IntentJournal open(Path dir) throws IOException {
        return open(dir, 4L << 20);
    }

    static IntentJournal open(Path dir, long rotateBytes) throws IOException {
        Files.createDirectories(dir);
        Map<Long, Intent> pending = new LinkedHashMap<>();
        long[] maxId = {0};
        read(dir.resolve(RECOVERING), pending, maxId);
        read(dir.resolve(LOG), pending, maxId);
        List<Intent> leftOver = new ArrayList<>(pending.values());
        // The previous run's open intents move aside (forced) before the log starts afresh.
        writeAtomically(dir, RECOVERING, leftOver);
        Files.deleteIfExists(dir.resolve(LOG));
        forceDirectory(dir);
        return new IntentJournal(dir, rotateBytes, leftOver, maxId[0] + 1);
    }

    private static void read(Path file, Map<Long, Intent> pending, long[] maxId) throws IOException {
        String text;
        try {
            text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return;
        }
        String[] lines = text.split("\n", -1); // the last element follows the last newline: a torn line, or ""
        for (int i = 0; i < lines.length - 1; i++) {
            String[] f = lines[i].split(" ");
            try {
                if (f[0].equals("B") && f.length == 5) {
                    long id = Long.parseLong(f[1]);
                    maxId[0] = Math.max(maxId[0], id);
                    pending.put(id, new Intent(id, Op.valueOf(f[2]), decode(f[3]),
                            f[4].equals("-") ? null : decode(f[4])));
                } else if (f[0].equals("D") && f.length == 2) {
                    pending.remove(Long.parseLong(f[1]));
                }
            } catch (IllegalArgumentException e) {
                // an unreadable line cannot name a write that began: only forced records count, and those are whole
            }
        }
    }

    /** The intents a crash left open in the previous run: to be {@linkplain Reconciliation reconciled}. */
    public List<Intent> leftOver() {
        return leftOver;
    }

    /**
     * Says which of the {@link #leftOver} intents could not be reconciled at start: they move into this run's log
     * (forced) as {@linkplain #unsettled unsettled} intents, settled as soon as their storage and index are back
     * rather than at the next start; the others are forgotten.
     */
    public void recovered(List<Intent> stillOpen) throws IOException {
        if (dir == null) {
            return;
        }
        if (!stillOpen.isEmpty()) {
            synchronized (syncLock) {
                synchronized (this) {
                    for (Intent intent : stillOpen) {
                        append(intent.line());
                        appended++;
                        open.put(intent.id(), intent);
                        unsettled.add(intent.id());
                    }
                    channel.force(false);
                    synced = appended;
                }
            }
        }
        Files.deleteIfExists(dir.resolve(RECOVERING));
        forceDirectory(dir);
    }

    /**
     * Records that the write of {@code intent} ended with the object changed but the index not agreeing with it (the
     * index database was away): the intent stays open, and {@link #unsettled} names it until it is {@link #done}.
     */
    public synchronized void unsettled(Intent intent) {
        if (open.containsKey(intent.id())) {
            unsettled.add(intent.id());
        }
    }

    /** The open intents of writes that have ended without the index agreeing: what is to be settled now. */
    public synchronized List<Intent> unsettled() {
        List<Intent> list = new ArrayList<>();
        for (Long id : unsettled) {
            list.add(open.get(id));
        }
        return list;
    }

    /**
     * Records that a write is about to change {@code path}, and returns once that record is on disk (concurrent
     * callers share one fsync).
     */
    public Intent begin(Op op, String path, String sopInstanceUid) throws IOException {
        if (dir == null) {
            return new Intent(0, op, path, sopInstanceUid);
        }
        Intent intent = new Intent(ids.getAndIncrement(), op, path, sopInstanceUid);
        long mine;
        synchronized (this) {
            append(intent.line());
            open.put(intent.id(), intent);
            mine = ++appended;
        }
        synchronized (syncLock) {
            if (synced < mine) {
                long upTo;
                FileChannel forced;
                synchronized (this) {
                    upTo = appended;
                    forced = channel;
                }
                forced.force(false);
                synced = Math.max(synced, upTo);
            }
        }
        return intent;
    }

    /**
     * Records that the write of {@code intent} is complete (or never touched the object): the index agrees with the
     * object. Not forced: if it is lost, the next start reconciles the path again, which is harmless.
     */
    public void done(Intent intent) {
        if (dir == null) {
            return;
        }
        boolean full;
        synchronized (this) {
            if (open.remove(intent.id()) == null) {
                return;
            }
            unsettled.remove(intent.id());
            try {
                append("D " + intent.id() + "\n");
                full = channel.size() > rotateBytes;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the intent journal in " + dir, e);
            }
        }
        if (full) {
            synchronized (syncLock) { // a rotation swaps the channel: no fsync may run on the old one meanwhile
                synchronized (this) {
                    try {
                        if (channel.size() > rotateBytes) {
                            rotate();
                            synced = appended;
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException("cannot rotate the intent journal in " + dir, e);
                    }
                }
            }
        }
    }

    /** How many writes are in progress (or were left {@linkplain #unsettled() unsettled}). */
    public synchronized int openCount() {
        return open.size();
    }

    private void append(String line) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    }

    /** Rewrites the log with the open intents only (forced before it replaces the old one). */
    private void rotate() throws IOException {
        writeAtomically(dir, LOG, open.values());
        channel.close();
        channel = FileChannel.open(dir.resolve(LOG), StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        forceDirectory(dir);
    }

    private static void writeAtomically(Path dir, String name, Iterable<Intent> intents) throws IOException {
        Path temp = dir.resolve(name + ".tmp");
        StringBuilder text = new StringBuilder();
        for (Intent i : intents) {
            text.append(i.line());
        }
        try (FileChannel c = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer bytes = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                c.write(bytes);
            }
            c.force(true);
        }
        Files.move(temp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static void forceDirectory(Path dir) {
        try (FileChannel c = FileChannel.open(dir, StandardOpenOption.READ)) {
            c.force(true);
        } catch (IOException e) {
            // some file systems cannot open directories; the renames are atomic all the same
        }
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // the records are written; closing frees the descriptor only
            }
        }
    }

    @Override
    public String toString() {
        return dir == null ? "IntentJournal[none]" : "IntentJournal[" + dir + "]";
    }
}
