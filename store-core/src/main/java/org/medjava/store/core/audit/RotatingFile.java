package org.medjava.store.core.audit;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * A text file written line by line and rotated by size, as logrotate names the copies: when the next line would
 * take {@code name} past {@code maxBytes}, {@code name.N-1} becomes {@code name.N} … {@code name} becomes
 * {@code name.1}, and the oldest beyond {@code keep} is deleted. Each line, or batch of lines, is flushed as it is
 * written (a crash loses nothing already written); writers on several threads get whole lines. Used for the server log, the access log and
 * the audit log.
 */
public final class RotatingFile implements Closeable {

    private final Path file;
    private final long maxBytes;
    private final int keep;
    private final boolean ownerOnly;
    private OutputStream out;
    private long size;

    /**
     * @param maxBytes  the size that triggers a rotation (a single longer line is still written whole)
     * @param keep      rotated copies kept (0: the file is emptied instead)
     * @param ownerOnly create the file readable by its owner only (the audit log holds Patient IDs)
     */
    public RotatingFile(Path file, long maxBytes, int keep, boolean ownerOnly) throws IOException {
        if (maxBytes < 1 || keep < 0) {
            throw new IllegalArgumentException("a log file needs a positive size limit and a count >= 0");
        }
        this.file = file;
        this.maxBytes = maxBytes;
        this.keep = keep;
        this.ownerOnly = ownerOnly;
        Files.createDirectories(file.toAbsolutePath().getParent());
        open();
    }

    public Path path() {
        return file;
    }

    /** Appends {@code line} and a line feed (the caller makes sure the line holds no line break). */
    public void writeLine(String line) throws IOException {
        writeLines(List.of(line));
    }

    /** Appends each line and a line feed, then flushes once (a batch of a log's writer thread). */
    public void writeLines(List<String> lines) throws IOException {
        List<byte[]> encoded = lines.stream().map(line -> (line + "\n").getBytes(StandardCharsets.UTF_8)).toList();
        synchronized (this) {
            for (byte[] bytes : encoded) {
                if (out == null) {
                    open(); // closed, or a previous rotation failed half-way
                }
                if (size > 0 && size + bytes.length > maxBytes) {
                    rotate();
                }
                out.write(bytes);
                size += bytes.length;
            }
            out.flush();
        }
    }

    private void rotate() throws IOException {
        out.close();
        out = null;
        if (keep == 0) {
            Files.delete(file);
        } else {
            Files.deleteIfExists(numbered(keep));
            for (int i = keep - 1; i >= 1; i--) {
                if (Files.exists(numbered(i))) {
                    Files.move(numbered(i), numbered(i + 1), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Files.move(file, numbered(1), StandardCopyOption.REPLACE_EXISTING);
        }
        open();
    }

    private Path numbered(int n) {
        return file.resolveSibling(file.getFileName() + "." + n);
    }

    private void open() throws IOException {
        if (ownerOnly && !Files.exists(file)
                && FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        out = new BufferedOutputStream(Files.newOutputStream(file, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND, StandardOpenOption.WRITE), 8192);
        size = Files.size(file);
    }

    @Override
    public synchronized void close() throws IOException {
        if (out != null) {
            out.close();
            out = null;
        }
    }
}
