package org.medjava.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.medjava.bench.setup.BenchPaths;
import org.medjava.bench.setup.GrayFormat;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.setup.TestImages;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.filter.runtime.isolation.WorkerOptions;
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
 * Issue 31's speed target: one filter call through {@link FilterRegistry#apply} with the plugin in this process
 * ({@code new FilterRegistry(dir)}) against the same call with the plugin in a confined filter worker
 * ({@code new FilterRegistry(dir, WorkerOptions.defaults())}: the raster through the worker's {@code /dev/shm}
 * segment, the request over its Unix domain socket). The built-in plugin JARs (signed; the registry's trust is left
 * off) from {@code benchmarks/target/plugins}, the optimized kernels at default parameters on the whole image, as the
 * store renders. Sample time, so the JSON holds p50 and p99 of the per-call time; the overhead is worker minus
 * in-process. Targets: 512² ≤ 1 ms at p50 and ≤ 3 ms at p99, 4096² ≤ 5%.
 *
 * <p>{@code java -jar benchmarks/target/benchmarks.jar jmh FilterWorkerBenchmark} (about 4 minutes).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class FilterWorkerBenchmark {
    /** {@code in-process} or {@code worker}. */
    @Param({"in-process", "worker"})
    public String path;

    /** A built-in filter: blur is the cheapest per pixel at 512², sharpen about ten times dearer. */
    @Param({"blur", "sharpen"})
    public String filter;

    /** {@code rgb-N} (8-bit RGB, N×N) or {@code gray16-N} (16 bits stored, unsigned, N×N). */
    @Param({"rgb-512", "rgb-4096", "gray16-512"})
    public String image;

    private Path dir;
    private FilterRegistry registry;
    private Raster rgb;
    private GrayRaster16 gray;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        Path jar = BenchPaths.requireFile(BenchPaths.root().resolve("benchmarks/target/plugins/filter-" + filter
                + ".jar"), "build the benchmarks (mvn -pl benchmarks -am package)");
        dir = Files.createTempDirectory("medjava-bench-workers-");
        registry = switch (path) {
            case "in-process" -> new FilterRegistry(dir);
            case "worker" -> new FilterRegistry(dir, WorkerOptions.defaults());
            default -> throw new IllegalArgumentException("path must be in-process or worker, not " + path);
        };
        try {
            registry.load(filter, jar, Map.of()); // the manifest's Plugin-Id
        } catch (RuntimeException e) {
            tearDown(); // JMH skips the tear-down when the set-up throws: the workers and their segments would stay
            throw e;
        }
        String[] kind = image.split("-", 2);
        ImageSize size = ImageSize.parse(kind[1]);
        switch (kind[0]) {
            case "rgb" -> rgb = TestImages.noise(size);
            case "gray16" -> gray = TestImages.ct(size, GrayFormat.U16);
            default -> throw new IllegalArgumentException("image must be rgb-N or gray16-N, not " + image);
        }
        System.out.println("\nfilter calls: " + registry.isolation());
    }

    @Benchmark
    public Object call() {
        return rgb != null ? registry.apply(filter, rgb, null, Map.of(), Implementation.OPTIMIZED)
                : registry.apply(filter, gray, null, Map.of(), Implementation.OPTIMIZED);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        registry.close();
        try (var files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
