package org.medjava.bench;

import java.util.concurrent.TimeUnit;
import org.medjava.bench.setup.GrayFormat;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.setup.TestImages;
import org.medjava.bench.variant.FilterVariant;
import org.medjava.bench.variant.Impl;
import org.medjava.filter.GrayRaster16;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link FilterBenchmark} on 16-bit grey data (docs/xv-filters-16bit.md): one filter × image size × grey format ×
 * implementation (Java grey kernels on {@link GrayRaster16}, C grey ports through JNI, OpenCV on {@code CV_16U} /
 * {@code CV_16S}) at default parameters on a generated CT-like slice ({@link TestImages#ct}). Each invocation copies
 * the source into the destination and filters the whole image. Java variants on a JIT are pre-warmed as in
 * {@link FilterBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class Gray16Benchmark {
    /** {@code N} for N×N or {@code WxH}. */
    @Param({"1024"})
    public String size;

    @Param({"blur", "sharpen", "despeckle", "edge-detect", "emboss", "oil-paint", "pixelize", "spread"})
    public String filter;

    /** A {@link GrayFormat}: {@code u16} (OpenCV 16U) or {@code s16} (16S). */
    @Param({"u16"})
    public String format;

    /** An {@link Impl} id. */
    @Param({"java-straightforward", "java-optimized", "java-parallel"})
    public String impl;

    private static final ImageSize PREWARM_SIZE = new ImageSize(256, 256);

    private FilterVariant variant;

    @Setup(Level.Trial)
    public void setUp() {
        Impl implementation = Impl.parse(impl);
        GrayFormat grayFormat = GrayFormat.parse(format);
        if (!implementation.supportsGray16(filter, grayFormat)) {
            throw new IllegalArgumentException(impl + " has no 16-bit " + filter + " on " + grayFormat);
        }
        if (implementation.isJava() && !"xint".equals(System.getProperty("medjava.bench.jvm"))) {
            prewarm(implementation, filter, grayFormat);
        }
        ImageSize imageSize = ImageSize.parse(size);
        GrayRaster16 src = TestImages.ct(imageSize, grayFormat);
        GrayRaster16 dst = new GrayRaster16(imageSize.width(), imageSize.height(), grayFormat.bitsStored(),
                grayFormat.signed());
        variant = implementation.createGray16(filter, src, dst);
    }

    static void prewarm(Impl implementation, String filter, GrayFormat format) {
        GrayRaster16 src = TestImages.ct(PREWARM_SIZE, format);
        GrayRaster16 dst = src.copy();
        try (FilterVariant warm = implementation.createGray16(filter, src, dst)) {
            long end = System.nanoTime() + FilterBenchmark.PREWARM_NANOS;
            while (System.nanoTime() < end) {
                warm.run();
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        variant.close();
    }

    @Benchmark
    public Object run() {
        return variant.run();
    }
}
