package org.medjava.bench.ffm;

import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import org.medjava.bench.setup.BenchPaths;

/**
 * One way of calling {@code libmedjava_callbench.so} ({@code benchmarks/src/main/c-ffm/call_bench.c}) from Java:
 * JNI ({@link JniCalls}) or the Foreign Function &amp; Memory API ({@code FfmCalls}, compiled for Java 22 from
 * {@code src/main/java22} and loadable on JDK 22+ only). The operations are the same C functions behind both.
 */
public interface NativeCalls extends AutoCloseable {
    /** {@code jni} or {@code ffm}. */
    String id();

    /** An empty C function. */
    void empty();

    /** A frame handed over by copying: Java array → native buffer, call, native buffer → Java array. */
    int passCopy(byte[] src, byte[] dst);

    /** A frame handed over in place: JNI pins the arrays (critical), FFM passes heap segments (critical call). */
    int passPinned(byte[] src, byte[] dst);

    /** A frame already off the Java heap (JNI: direct buffers; FFM: memory segments), {@link #allocateOffHeap}. */
    int passOffHeap();

    /** Allocates the two off-heap frames {@link #passOffHeap} passes. */
    void allocateOffHeap(int bytes);

    /** The C blur (optimized port, -O2) over a whole RGB image, the arrays in place; {@code dst} holds a copy of src. */
    void blur(byte[] src, byte[] dst, int width, int height);

    @Override
    void close();

    /** The library both ways call. */
    static Path library() {
        return BenchPaths.requireFile(BenchPaths.nativeDir().resolve("libmedjava_callbench.so"),
                "build the benchmarks module (mvn -pl benchmarks -am package)");
    }

    /** Whether this JVM can run the FFM side (JDK 22 or newer). */
    static boolean ffmAvailable() {
        return Runtime.version().feature() >= 22;
    }

    static NativeCalls open(String id) {
        switch (id) {
            case "jni":
                return new JniCalls();
            case "ffm":
                if (!ffmAvailable()) {
                    throw new UnsupportedOperationException("the FFM calls need JDK 22 or newer; this is "
                            + Runtime.version());
                }
                try {
                    return (NativeCalls) Class.forName("org.medjava.bench.ffm.FfmCalls").getConstructor()
                            .newInstance();
                } catch (ClassNotFoundException e) {
                    throw new IllegalStateException("FfmCalls was not compiled: the build found no JDK 25 "
                            + "(profile ffm-jdk25 of benchmarks/pom.xml)", e);
                } catch (InvocationTargetException e) {
                    throw new IllegalStateException("FfmCalls failed: " + e.getCause(), e.getCause());
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            default:
                throw new IllegalArgumentException("path must be jni or ffm, got " + id);
        }
    }
}
