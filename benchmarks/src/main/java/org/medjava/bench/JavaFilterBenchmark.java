package org.medjava.bench;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.medjava.filter.Filter;
import org.medjava.filter.FilterParams;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.spi.FilterProvider;
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
 * Every Java port of every filter at default parameters on a random square RGB image. Each invocation does the
 * same work as every other variant will: copy source to destination, then filter the whole image; it returns the
 * result so nothing is optimized away. {@link CopyBaseline} is the memory floor, run in the same session.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class JavaFilterBenchmark {
    @Param({"1024"})
    public int size;

    @Param({"blur", "sharpen", "despeckle", "edge-detect", "emboss", "oil-paint", "pixelize", "spread"})
    public String filter;

    @Param({"straightforward", "optimized", "parallel"})
    public String implementation;

    private Filter port;
    private FilterParams params;
    private Implementation impl;
    private Raster src;
    private Raster dst;

    @Setup(Level.Trial)
    public void setUp() {
        port = filters().get(filter);
        params = port.descriptor().defaults();
        impl = Implementation.parse(implementation);
        byte[] rgb = new byte[3 * size * size];
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < rgb.length; i++) {
            rgb[i] = (byte) random.nextInt(256);
        }
        src = new Raster(size, size, rgb);
        dst = new Raster(size, size);
    }

    static Map<String, Filter> filters() {
        Map<String, Filter> byId = new TreeMap<>();
        for (FilterProvider provider : ServiceLoader.load(FilterProvider.class)) {
            provider.filters().forEach(f -> byId.put(f.descriptor().id(), f));
        }
        return byId;
    }

    @Benchmark
    public Raster filter() {
        dst.copyFrom(src);
        port.apply(src, dst, new Region(0, 0, size, size), params, impl);
        return dst;
    }
}
