package org.medjava.bench;

import java.util.concurrent.TimeUnit;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.setup.TestImages;
import org.medjava.bench.variant.FilterVariant;
import org.medjava.bench.variant.Impl;
import org.medjava.filter.Raster;
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
 * One filter × image size × implementation (Java ports, C ports through JNI, OpenCV) at default parameters on
 * random noise. Each invocation copies the source into the destination and filters the whole image, and returns the
 * result. Which JVM runs the fork (JDK 17 JIT, {@code -Xint}, JDK 25) is chosen by the runner
 * ({@code org.medjava.bench.run.BenchMain}); the annotations here are only the defaults of a bare JMH run.
 *
 * <p>Java variants on a JIT are pre-warmed in the set-up: a second of calls on a 256² image, so C2 has compiled the
 * kernels before the first warm-up iteration. Without it, the first call at 4096² ran the Vector API kernels
 * interpreted for 1–4 s, and the measured iterations were still falling (30, 24, 21 ms) after the warm-up.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class FilterBenchmark {
    /** {@code N} for N×N or {@code WxH}. */
    @Param({"1024"})
    public String size;

    @Param({"blur", "sharpen", "despeckle", "edge-detect", "emboss", "oil-paint", "pixelize", "spread"})
    public String filter;

    /** An {@link Impl} id. */
    @Param({"java-straightforward", "java-optimized", "java-parallel"})
    public String impl;

    /** How long the set-up pre-warms a Java variant on a small image. */
    static final long PREWARM_NANOS = 1_000_000_000L;
    private static final ImageSize PREWARM_SIZE = new ImageSize(256, 256);

    private FilterVariant variant;

    @Setup(Level.Trial)
    public void setUp() {
        Impl implementation = Impl.parse(impl);
        if (implementation.isJava() && !"xint".equals(System.getProperty("medjava.bench.jvm"))) {
            prewarm(implementation, filter);
        }
        ImageSize imageSize = ImageSize.parse(size);
        Raster src = TestImages.noise(imageSize);
        Raster dst = new Raster(imageSize.width(), imageSize.height());
        variant = implementation.create(filter, src, dst);
    }

    /** Runs the variant on a small image until C2 has had its chance (see the class comment). */
    static void prewarm(Impl implementation, String filter) {
        Raster src = TestImages.noise(PREWARM_SIZE);
        Raster dst = new Raster(PREWARM_SIZE.width(), PREWARM_SIZE.height());
        try (FilterVariant warm = implementation.create(filter, src, dst)) {
            long end = System.nanoTime() + PREWARM_NANOS;
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
