package org.medjava.bench.variant;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.medjava.bench.jni.CBuild;
import org.medjava.bench.jni.CFilters;

/**
 * Which filters the vectorized C has a kernel for, asked of the library itself (c-reference adds them one by one; a
 * filter without one answers "no vectorized variant yet"), so a run plans no cell that can only fail and the report
 * shows "n/a" there. Asked once per filter and kind of data.
 */
public final class VectorizedKernels {
    private static final Map<String, Boolean> KNOWN = new ConcurrentHashMap<>();

    private VectorizedKernels() {
    }

    /** Whether {@code filter} has a vectorized C kernel for 8-bit RGB, or for 16-bit grey when {@code gray16}. */
    public static boolean has(String filter, boolean gray16) {
        return KNOWN.computeIfAbsent(filter + (gray16 ? "/gray16" : "/rgb8"), k -> probe(filter, gray16));
    }

    private static boolean probe(String filter, boolean gray16) {
        CFilters c;
        try {
            c = CFilters.of(CBuild.O2);
        } catch (RuntimeException | LinkageError e) {
            return true; // no library: let the benchmark fail and say why, rather than hide the column
        }
        return c.hasVectorized(filter, gray16);
    }

    /** {@code mj_simd_level()} of this process, "unavailable: …" without the library. */
    public static String level() {
        try {
            return CFilters.of(CBuild.O2).simdLevel();
        } catch (RuntimeException | LinkageError e) {
            return "unavailable: " + e.getMessage();
        }
    }

    /** How the report names a level: {@code avx512} → "AVX-512" (512-bit), {@code avx2} → "AVX2", else as is. */
    public static String levelTitle(String level) {
        switch (level) {
            case "avx512": return "AVX-512";
            case "avx2": return "AVX2";
            case "scalar": return "scalar fallback";
            default: return level;
        }
    }

    /** The vector width of a level in bits (0 for the scalar fallback or an unknown level). */
    public static int levelBits(String level) {
        switch (level) {
            case "avx512": return 512;
            case "avx2": return 256;
            default: return 0;
        }
    }
}
