package org.medjava.bench;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.medjava.bench.ipc.RasterEcho;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.setup.TestImages;
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
 * Issue 31, the companion paper's comparison on today's JVM: an 8-bit RGB raster to another process and back,
 * through shared memory (the filter workers' {@code Segment}) or copied through a Unix domain socket or a pipe
 * ({@link RasterEcho}; no filter), and through shared memory left in place by the other process. Sample time: p50
 * and p99 of one round trip.
 *
 * <p>{@code java -jar benchmarks/target/benchmarks.jar jmh RasterPassingBenchmark} (about 2 minutes).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class RasterPassingBenchmark {
    /** {@code shm}, {@code shm-in-place}, {@code uds} or {@code pipe} ({@link RasterEcho}). */
    @Param({"shm", "shm-in-place", "uds", "pipe"})
    public String mechanism;

    /** N for an N×N RGB raster. */
    @Param({"512", "4096"})
    public String size;

    private RasterEcho echo;
    private byte[] raster;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        raster = TestImages.noise(ImageSize.parse(size)).rgb().clone();
        echo = RasterEcho.start(mechanism, raster.length);
    }

    @Benchmark
    public byte[] roundTrip() throws IOException {
        echo.roundTrip(raster);
        return raster;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        echo.close();
    }
}
