package org.medjava.bench;

import java.util.concurrent.TimeUnit;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.setup.TestImages;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * One read and one write of the image: the copy every filter variant starts with, and the memory floor no filter
 * can beat on this machine.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class CopyBaseline {
    /** {@code N} for N×N or {@code WxH}. */
    @Param({"1024"})
    public String size;

    private Raster src;
    private Raster dst;

    @Setup(Level.Trial)
    public void setUp() {
        ImageSize imageSize = ImageSize.parse(size);
        src = TestImages.noise(imageSize);
        dst = new Raster(imageSize.width(), imageSize.height());
    }

    @Benchmark
    public Raster copy() {
        dst.copyFrom(src);
        return dst;
    }
}
