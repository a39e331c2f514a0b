package org.medjava.bench.jni;

import java.nio.file.Path;
import org.medjava.bench.setup.BenchPaths;

/** The two builds of the C filters the benchmarks compare, each a JNI library of its own. */
public enum CBuild {
    /** The project's reference flags: {@code -O2 -ffp-contract=off}. */
    O2("O2", "libmedjava_jni_o2.so"),
    /** {@code -O3 -march=native -ffp-contract=off}: gcc's auto-vectorization for this CPU. */
    NATIVE("native", "libmedjava_jni_native.so");

    private final String label;
    private final String libraryFile;
    private volatile boolean loaded;

    CBuild(String label, String libraryFile) {
        this.label = label;
        this.libraryFile = libraryFile;
    }

    /** {@code O2} or {@code native}: the suffix of the implementation ids ({@code c-optimized-native}). */
    public String label() {
        return label;
    }

    public Path library() {
        return BenchPaths.nativeDir().resolve(libraryFile);
    }

    synchronized void load() {
        if (!loaded) {
            Path lib = BenchPaths.requireFile(library(),
                    "build the benchmarks module (mvn -pl benchmarks -am package, or ./medjava build)");
            System.load(lib.toAbsolutePath().toString());
            loaded = true;
        }
    }
}
