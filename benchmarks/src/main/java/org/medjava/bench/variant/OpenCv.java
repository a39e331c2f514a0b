package org.medjava.bench.variant;

import org.opencv.core.Core;

/** Loads OpenCV's native library (from the {@code org.openpnp:opencv} JAR) once, single-threaded. */
public final class OpenCv {
    private static boolean loaded;

    private OpenCv() {
    }

    /**
     * Loads the library and sets OpenCV to one thread, so it compares with the single-threaded Java and C columns.
     */
    public static synchronized void load() {
        if (!loaded) {
            nu.pattern.OpenCV.loadLocally();
            Core.setNumThreads(1);
            loaded = true;
        }
    }

    /** {@code "4.9.0"}, for the environment block. */
    public static String version() {
        load();
        return Core.VERSION;
    }
}
