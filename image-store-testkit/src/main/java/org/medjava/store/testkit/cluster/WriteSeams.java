package org.medjava.store.testkit.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Holds a write of a running node at one step of its change, so that a test can kill the node or stop a dependency
 * at exactly that step: the test side of store-core's {@code DirectorySeam}, which the nodes of a
 * {@link ClusterHarness} are started with ({@value #PROPERTY}).
 *
 * <p>{@link #arm} a step for a path prefix, send the write, {@link #awaitHeld} it, do the harm, {@link #release}.
 */
public final class WriteSeams {

    /** The JVM system property the nodes read the directory from. */
    public static final String PROPERTY = "medjava.test.seam-dir";
    /** The steps of a write, in order (store-core's {@code Ingest.Seam.Point}). */
    public static final List<String> STEPS = List.of("JOURNALED", "OBJECT_CHANGED", "INDEXED", "ANSWERING");

    private final Path dir;

    WriteSeams(Path dir) {
        this.dir = dir;
    }

    /** The JVM option that gives a node these seams. */
    String jvmOption() {
        return "-D" + PROPERTY + "=" + dir;
    }

    /** The next write of a path starting with {@code pathPrefix} (relative, without /images/) stops at {@code step}. */
    public void arm(String step, String pathPrefix) {
        check(step);
        try {
            Files.deleteIfExists(dir.resolve(step + ".reached"));
            Files.writeString(dir.resolve(step), pathPrefix, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits until a write is held at {@code step}.
     *
     * @return what the holding node wrote: its pid and the path
     * @throws AssertionError when no write got there in time
     */
    public String awaitHeld(String step, Duration within) throws InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        Path reached = dir.resolve(step + ".reached");
        while (System.nanoTime() < end) {
            try {
                String held = Files.readString(reached, StandardCharsets.UTF_8);
                if (!held.isEmpty()) {
                    return held;
                }
            } catch (NoSuchFileException e) {
                // not yet
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no write reached " + step + " within " + within);
    }

    /** Lets the held write go on (if its node still lives) and disarms the step. */
    public void release(String step) {
        check(step);
        try {
            Files.deleteIfExists(dir.resolve(step));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void check(String step) {
        if (!STEPS.contains(step)) {
            throw new IllegalArgumentException("no step " + step + "; steps: " + STEPS);
        }
    }
}
