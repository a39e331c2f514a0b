package org.medjava.bench.ffm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * JNI against the Foreign Function &amp; Memory API (issue 20): the same C functions ({@code call_bench.c}) through
 * {@code path} = {@code jni} or {@code ffm}: an empty call, an RGB frame of {@code size}² handed over by copy, in
 * place (pinned) and off-heap, and the whole C blur. FFM needs JDK 22+: the runner
 * ({@code org.medjava.bench.ffm.FfmStep}) gives {@code ffm} to JDK 25 forks only. The blur's set-up checks that
 * FFM's output equals JNI's byte for byte and appends the verdict to the file named by
 * {@code -Dmedjava.bench.ffm.check} (when set).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class NativeCallBenchmark {
    public static final String CHECK_PROPERTY = "medjava.bench.ffm.check";

    @Param({"jni", "ffm"})
    public String path;

    /** The frame's side ({@code N} for N×N RGB); unused by {@link #empty}. */
    @Param({"4096"})
    public String size;

    private NativeCalls calls;
    private byte[] src;
    private byte[] dst;
    private ImageSize frame;

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) throws IOException {
        calls = NativeCalls.open(path);
        String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        if (method.equals("empty")) {
            return;
        }
        frame = ImageSize.parse(size);
        Raster image = TestImages.xorshift(frame);
        src = image.rgb();
        dst = src.clone();
        if (method.equals("passOffHeap")) {
            calls.allocateOffHeap(src.length);
        }
        if (method.equals("blur") && path.equals("ffm")) {
            checkAgainstJni();
        }
    }

    /** FFM's blur output against JNI's on the same frame; a difference fails the benchmark. */
    private void checkAgainstJni() throws IOException {
        byte[] viaFfm = src.clone();
        byte[] viaJni = src.clone();
        calls.blur(src, viaFfm, frame.width(), frame.height());
        try (NativeCalls jni = NativeCalls.open("jni")) {
            jni.blur(src, viaJni, frame.width(), frame.height());
        }
        boolean same = Arrays.equals(viaFfm, viaJni);
        String check = System.getProperty(CHECK_PROPERTY);
        if (check != null && !check.isBlank()) {
            Files.writeString(Path.of(check), String.format("blur,%s,%s,%s%n", frame.label(), Runtime.version(),
                    same ? "identical" : "DIFFERENT"), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }
        if (!same) {
            throw new IllegalStateException("FFM blur output differs from JNI blur output at " + frame.label());
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        calls.close();
    }

    @Benchmark
    public void empty() {
        calls.empty();
    }

    @Benchmark
    public int passCopy() {
        return calls.passCopy(src, dst);
    }

    @Benchmark
    public int passPinned() {
        return calls.passPinned(src, dst);
    }

    @Benchmark
    public int passOffHeap() {
        return calls.passOffHeap();
    }

    @Benchmark
    public byte[] blur() {
        calls.blur(src, dst, frame.width(), frame.height());
        return dst;
    }
}
