package org.medjava.bench.variant;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.medjava.bench.jni.CBuild;
import org.medjava.bench.jni.CFilters;
import org.medjava.bench.setup.GrayFormat;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;

/**
 * The implementations the benchmarks compare, by the id used in JMH params, CSV and charts. The JVM a Java
 * variant runs on (JDK 17 JIT, {@code -Xint}, JDK 25) is not part of the id: it is a column of its own, told apart
 * by the JVM the fork ran on.
 */
public enum Impl {
    JAVA_STRAIGHTFORWARD("java-straightforward", "Java straightforward"),
    JAVA_OPTIMIZED("java-optimized", "Java optimized, 1 thread"),
    JAVA_PARALLEL("java-parallel", "Java optimized, all cores"),
    C_STRAIGHTFORWARD_O2("c-straightforward-O2", "C straightforward -O2"),
    // the portable optimized C: vectorized only as far as gcc auto-vectorizes it (the ids predate the vectorized one)
    C_OPTIMIZED_O2("c-optimized-O2", "C portable -O2"),
    C_STRAIGHTFORWARD_NATIVE("c-straightforward-native", "C straightforward -O3 -march=native"),
    C_OPTIMIZED_NATIVE("c-optimized-native", "C portable -O3 -march=native"),
    /** Hand-written AVX-512/AVX2 intrinsics, the path chosen at run time; what Java is judged against. */
    C_VECTORIZED("c-vectorized", "C vectorized (-O2 + intrinsics)"),
    OPENCV("opencv", "OpenCV (not bit-exact)");

    private final String id;
    private final String title;

    Impl(String id, String title) {
        this.id = id;
        this.title = title;
    }

    public String id() {
        return id;
    }

    /** What the chart legend and tables call it. */
    public String title() {
        return title;
    }

    public boolean isJava() {
        return this == JAVA_STRAIGHTFORWARD || this == JAVA_OPTIMIZED || this == JAVA_PARALLEL;
    }

    public boolean isC() {
        return name().startsWith("C_");
    }

    /**
     * Whether this implementation has a version of {@code filter}: OpenCV has counterparts for five, the vectorized C
     * a kernel for those c-reference has written so far.
     */
    public boolean supports(String filter) {
        if (this == C_VECTORIZED) {
            return VectorizedKernels.has(filter, false);
        }
        return this != OPENCV || OpenCvVariant.hasCounterpart(filter);
    }

    /** The title with the vectorized C's code path in it ({@code level} of {@code mj_simd_level()}, may be null). */
    public String title(String level) {
        return this == C_VECTORIZED && level != null && !level.isBlank()
                ? "C vectorized (" + VectorizedKernels.levelTitle(level) + ", -O2 + intrinsics)" : title;
    }

    /**
     * Whether this implementation has a 16-bit grey version of {@code filter} on data of {@code format}: the Java
     * and C ports have all eight; OpenCV has six on 16U and five on 16S (no median on 16S).
     */
    public boolean supportsGray16(String filter, GrayFormat format) {
        if (this == OPENCV) {
            return OpenCvGray16Variant.hasCounterpart(filter, format);
        }
        if (this == C_VECTORIZED) {
            return VectorizedKernels.has(filter, true);
        }
        return JavaFilters.get(filter).supportsGray16();
    }

    /** What OpenCV runs for {@code filter} on 16-bit grey data and whether it is equivalent, or null. */
    public static String openCvGray16Description(String filter) {
        return OpenCvGray16Variant.DESCRIPTIONS.get(filter);
    }

    /** What OpenCV runs for {@code filter} on 8-bit RGB data, or null. */
    public static String openCvDescription(String filter) {
        return OpenCvVariant.DESCRIPTIONS.get(filter);
    }

    public static Impl parse(String id) {
        for (Impl impl : values()) {
            if (impl.id.equals(id)) {
                return impl;
            }
        }
        throw new IllegalArgumentException("unknown implementation \"" + id + "\"; expected one of: "
                + Arrays.stream(values()).map(Impl::id).collect(Collectors.joining(", ")));
    }

    public static List<Impl> java() {
        return List.of(JAVA_STRAIGHTFORWARD, JAVA_OPTIMIZED, JAVA_PARALLEL);
    }

    public static List<Impl> c() {
        return List.of(C_STRAIGHTFORWARD_O2, C_OPTIMIZED_O2, C_STRAIGHTFORWARD_NATIVE, C_OPTIMIZED_NATIVE,
                C_VECTORIZED);
    }

    /** Binds this implementation of {@code filter} (default parameters) to the two images. */
    public FilterVariant create(String filter, Raster src, Raster dst) {
        switch (this) {
            case JAVA_STRAIGHTFORWARD:
                return new JavaVariant(filter, Implementation.STRAIGHTFORWARD, src, dst);
            case JAVA_OPTIMIZED:
                return new JavaVariant(filter, Implementation.OPTIMIZED, src, dst);
            case JAVA_PARALLEL:
                return new JavaVariant(filter, Implementation.PARALLEL, src, dst);
            case C_STRAIGHTFORWARD_O2:
                return new CVariant(CBuild.O2, CFilters.STRAIGHTFORWARD, filter, src, dst);
            case C_OPTIMIZED_O2:
                return new CVariant(CBuild.O2, CFilters.OPTIMIZED, filter, src, dst);
            case C_STRAIGHTFORWARD_NATIVE:
                return new CVariant(CBuild.NATIVE, CFilters.STRAIGHTFORWARD, filter, src, dst);
            case C_OPTIMIZED_NATIVE:
                return new CVariant(CBuild.NATIVE, CFilters.OPTIMIZED, filter, src, dst);
            case C_VECTORIZED: // the intrinsics carry their own ISA: the -O2 library holds them
                return new CVariant(CBuild.O2, CFilters.VECTORIZED, filter, src, dst);
            case OPENCV:
                return new OpenCvVariant(filter, src, dst);
            default:
                throw new IllegalStateException("unhandled " + this);
        }
    }

    /** Binds this implementation's 16-bit grey version of {@code filter} (default parameters) to the two images. */
    public FilterVariant createGray16(String filter, GrayRaster16 src, GrayRaster16 dst) {
        switch (this) {
            case JAVA_STRAIGHTFORWARD:
                return new JavaGray16Variant(filter, Implementation.STRAIGHTFORWARD, src, dst);
            case JAVA_OPTIMIZED:
                return new JavaGray16Variant(filter, Implementation.OPTIMIZED, src, dst);
            case JAVA_PARALLEL:
                return new JavaGray16Variant(filter, Implementation.PARALLEL, src, dst);
            case C_STRAIGHTFORWARD_O2:
                return new CGray16Variant(CBuild.O2, CFilters.STRAIGHTFORWARD, filter, src, dst);
            case C_OPTIMIZED_O2:
                return new CGray16Variant(CBuild.O2, CFilters.OPTIMIZED, filter, src, dst);
            case C_STRAIGHTFORWARD_NATIVE:
                return new CGray16Variant(CBuild.NATIVE, CFilters.STRAIGHTFORWARD, filter, src, dst);
            case C_OPTIMIZED_NATIVE:
                return new CGray16Variant(CBuild.NATIVE, CFilters.OPTIMIZED, filter, src, dst);
            case C_VECTORIZED:
                return new CGray16Variant(CBuild.O2, CFilters.VECTORIZED, filter, src, dst);
            case OPENCV:
                return new OpenCvGray16Variant(filter, src, dst);
            default:
                throw new IllegalStateException("unhandled " + this);
        }
    }
}
