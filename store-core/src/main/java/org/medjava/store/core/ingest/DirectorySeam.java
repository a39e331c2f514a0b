package org.medjava.store.core.ingest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * Holds a write of a running store at a step of its change, for fault tests from outside the process (kill the node,
 * stop the database at exactly that step). Only when the JVM is started with {@value #PROPERTY} naming a directory;
 * without it (always, outside tests) no seam is checked.
 *
 * <p>A test arms a point by writing a path prefix into the file named after it ({@code OBJECT_CHANGED}); the first
 * write of a path with that prefix to reach the point creates {@code OBJECT_CHANGED.reached} (saying this process's
 * pid and the path) and waits there until the test deletes the armed file, or for two minutes.
 */
final class DirectorySeam implements Ingest.Seam {

    /** The JVM system property naming the directory (test runs only). */
    static final String PROPERTY = "medjava.test.seam-dir";
    private static final Logger LOG = Logger.getLogger(DirectorySeam.class.getName());
    private static final long HOLD_NANOS = TimeUnit.MINUTES.toNanos(2);

    private final Path dir;

    private DirectorySeam(Path dir) {
        this.dir = dir;
    }

    /** The seam the JVM's system property asks for, or one that does nothing. */
    static Ingest.Seam fromSystemProperty() {
        String dir = System.getProperty(PROPERTY);
        return dir == null || dir.isBlank() ? (point, path) -> { } : new DirectorySeam(Path.of(dir));
    }

    @Override
    public void at(Point point, String path) {
        Path armed = dir.resolve(point.name());
        String prefix;
        try {
            prefix = Files.readString(armed, StandardCharsets.UTF_8).trim();
        } catch (NoSuchFileException e) {
            return;
        } catch (IOException e) {
            throw new IllegalStateException("test seam " + armed + " unreadable", e);
        }
        if (!path.startsWith(prefix)) {
            return;
        }
        try {
            Files.writeString(dir.resolve(point.name() + ".reached"), ProcessHandle.current().pid() + " " + path,
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
        } catch (FileAlreadyExistsException e) {
            return; // another write holds this point already
        } catch (IOException e) {
            throw new IllegalStateException("test seam " + armed + " cannot be marked reached", e);
        }
        LOG.warning("test seam: holding the write of " + path + " at " + point + " until " + armed + " is removed");
        long end = System.nanoTime() + HOLD_NANOS;
        while (Files.exists(armed) && System.nanoTime() < end) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        LOG.warning("test seam: the write of " + path + " goes on from " + point);
    }
}
