package org.medjava.store.core.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.medjava.store.core.StoreException;

/**
 * The floor of free space below which the store refuses writes, checked before a write starts: a nearly full disk
 * answers 507 (HTTP) or A700 (DIMSE) with how much is free, instead of failing half-way, and the space left keeps
 * the index database, the logs and the reads going. Reads are never refused. The directories checked are those
 * writes land on first (the staging directory: under the images with local files, {@code work/staging} with S3)
 * and the data directory (the index, the plugins); the one with the least free space decides.
 *
 * <p>When the free space cannot be read, writes go ahead (a real lack of space still fails them cleanly).
 */
public final class DiskSpaceGuard {

    /** The default floor: 1 GiB, room for the largest default upload's index rows and logs. */
    public static final long DEFAULT_MIN_FREE_BYTES = 1L << 30;
    /** The setting that holds the floor, named in refusals. */
    public static final String SETTING = "medjava.storage.min-free-bytes";

    /** Reads the usable space of the file system holding a directory. */
    @FunctionalInterface
    public interface Probe {
        long usableBytes(Path directory) throws IOException;
    }

    private static final Probe FILE_SYSTEM = dir -> Files.getFileStore(dir).getUsableSpace();

    private final List<Path> directories;
    private final long minFreeBytes;
    private final Probe probe;

    /** @param minFreeBytes the floor; 0 never refuses */
    public DiskSpaceGuard(long minFreeBytes, List<Path> directories) {
        this(minFreeBytes, directories, FILE_SYSTEM);
    }

    public DiskSpaceGuard(long minFreeBytes, List<Path> directories, Probe probe) {
        if (minFreeBytes < 0) {
            throw new IllegalArgumentException(SETTING + " is " + minFreeBytes + "; use 0 (no floor) or more bytes");
        }
        if (directories.isEmpty() && minFreeBytes > 0) {
            throw new IllegalArgumentException("no directory to watch");
        }
        this.directories = List.copyOf(directories);
        this.minFreeBytes = minFreeBytes;
        this.probe = probe;
    }

    /** A guard that never refuses and watches nothing (tests, tools). */
    public static DiskSpaceGuard none() {
        return new DiskSpaceGuard(0, List.of());
    }

    /**
     * The free space now, of the watched directory with the least.
     *
     * @param directory   where it was measured
     * @param freeBytes   usable bytes there, -1 when they could not be read
     * @param minFreeBytes the floor
     */
    public record Status(Path directory, long freeBytes, long minFreeBytes) {

        /** Whether writes are accepted now. */
        public boolean writable() {
            return freeBytes < 0 || freeBytes >= minFreeBytes;
        }

        /** One sentence for health checks and refusals. */
        public String describe() {
            if (freeBytes < 0) {
                return "the free space of " + directory + " cannot be read; writes are accepted";
            }
            return bytes(freeBytes) + " free on the disk of " + directory + ", the floor is " + bytes(minFreeBytes)
                    + " (" + SETTING + ")" + (writable() ? "" : ": writes are refused, reads go on");
        }
    }

    public long minFreeBytes() {
        return minFreeBytes;
    }

    /** The free space of the watched directory with the least. */
    public Status status() {
        Status lowest = null;
        for (Path dir : directories) {
            long free;
            try {
                free = probe.usableBytes(dir);
            } catch (IOException | RuntimeException e) {
                free = -1;
            }
            if (lowest == null || (free >= 0 && (lowest.freeBytes() < 0 || free < lowest.freeBytes()))) {
                lowest = new Status(dir, free, minFreeBytes);
            }
        }
        return lowest != null ? lowest : new Status(null, -1, minFreeBytes);
    }

    /** @throws StoreException INSUFFICIENT_STORAGE when the free space is below the floor */
    public void checkWritable() {
        checkWritable(-1);
    }

    /**
     * Refuses a write, before it starts, that would take the free space below the floor.
     *
     * @param incomingBytes the size of the body about to be written, or -1 when unknown
     * @throws StoreException INSUFFICIENT_STORAGE saying how much is free and what the floor is
     */
    public void checkWritable(long incomingBytes) {
        if (minFreeBytes == 0) {
            return;
        }
        Status now = status();
        if (now.freeBytes() < 0) {
            return;
        }
        long after = now.freeBytes() - Math.max(incomingBytes, 0);
        if (after < minFreeBytes) {
            // the summary comes first: a DIMSE Error Comment keeps only 64 characters
            String body = incomingBytes > 0 && now.writable() ? "a body of " + bytes(incomingBytes)
                    + " would leave " + bytes(Math.max(after, 0)) + "; " : "";
            throw new StoreException(StoreException.Kind.INSUFFICIENT_STORAGE, "disk nearly full: " + body
                    + bytes(now.freeBytes()) + " free, floor " + bytes(minFreeBytes) + "; writes are refused, reads"
                    + " go on (" + now.freeBytes() + " bytes free on the disk of " + now.directory() + ", below the"
                    + " floor of " + minFreeBytes + " bytes, " + SETTING + "). Free space (delete objects, grow the"
                    + " disk) or lower the floor");
        }
    }

    /**
     * Whether an I/O failure is the disk running out of space (ENOSPC, a quota) part-way through a write, which the
     * store answers as 507 rather than as a failure of its own.
     */
    public static boolean isOutOfSpace(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
            if (m.contains("no space left on device") || m.contains("disk quota exceeded")
                    || m.contains("not enough space on the disk")) {
                return true;
            }
        }
        return false;
    }

    /** An amount of bytes for people: "1.5 GiB", "300 bytes". */
    static String bytes(long n) {
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = n;
        String unit = null;
        for (String u : units) {
            if (v < 1024) {
                break;
            }
            v /= 1024;
            unit = u;
        }
        return unit == null ? n + " bytes" : String.format(Locale.ROOT, "%.1f %s", v, unit);
    }
}
