package org.medjava.bench.setup;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Where the benchmarks find the repository's built artefacts. The root comes from {@code -Dmedjava.root}, else from
 * where this class was loaded ({@code <root>/benchmarks/target/benchmarks.jar} or {@code .../target/classes}).
 */
public final class BenchPaths {
    private BenchPaths() {
    }

    public static Path root() {
        String configured = System.getProperty("medjava.root");
        if (configured != null && !configured.isBlank()) {
            return Paths.get(configured).toAbsolutePath().normalize();
        }
        Path target = codeLocation().getParent(); // benchmarks.jar or classes/ -> target/
        return target.getParent().getParent().toAbsolutePath().normalize();
    }

    /** The JNI libraries and the C transport program ({@code benchmarks/target/native}). */
    public static Path nativeDir() {
        String configured = System.getProperty("medjava.bench.native.dir");
        if (configured != null && !configured.isBlank()) {
            return Paths.get(configured);
        }
        return root().resolve("benchmarks/target/native");
    }

    public static Path cReference() {
        return root().resolve("c-reference");
    }

    /** An existing file, or an error that says how to build it. */
    public static Path requireFile(Path file, String buildHint) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(file + " is missing; " + buildHint);
        }
        return file;
    }

    private static Path codeLocation() {
        try {
            return Paths.get(BenchPaths.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot tell where the benchmarks were loaded from", e);
        }
    }
}
