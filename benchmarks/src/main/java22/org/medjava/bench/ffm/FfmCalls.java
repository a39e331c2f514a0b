package org.medjava.bench.ffm;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * {@link NativeCalls} through the Foreign Function &amp; Memory API (final in JDK 22): downcall handles to the plain
 * C functions of call_bench.c, found with {@link SymbolLookup#libraryLookup}. Copy in/out goes through segments of a
 * shared arena; "pinned" passes heap segments of the Java arrays to a downcall linked with
 * {@code Linker.Option.critical(true)} (the FFM counterpart of {@code GetPrimitiveArrayCritical}); off-heap passes
 * native segments. Compiled with {@code --release 22} (benchmarks/pom.xml, profile ffm-jdk25).
 */
public final class FfmCalls implements NativeCalls {
    private static final Linker LINKER = Linker.nativeLinker();
    // static final: the JIT treats the handles as constants and inlines the downcalls (instance fields it would not)
    private static final SymbolLookup LIB = SymbolLookup.libraryLookup(NativeCalls.library(), Arena.global());
    private static final FunctionDescriptor PASS = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
            ValueLayout.ADDRESS, ValueLayout.JAVA_LONG);
    private static final MethodHandle EMPTY = LINKER.downcallHandle(find("mjb_empty"), FunctionDescriptor.ofVoid());
    private static final MethodHandle PASS_NATIVE = LINKER.downcallHandle(find("mjb_pass"), PASS);
    private static final MethodHandle PASS_HEAP = LINKER.downcallHandle(find("mjb_pass"), PASS,
            Linker.Option.critical(true));
    private static final MethodHandle RUN_HEAP = LINKER.downcallHandle(find("mjb_run"),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                    ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT), Linker.Option.critical(true));
    private static final MethodHandle PREPARE = LINKER.downcallHandle(find("mjb_prepare"),
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
    private static final MethodHandle RELEASE = LINKER.downcallHandle(find("mjb_release"),
            FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));

    private final Arena arena = Arena.ofShared();
    private final MemorySegment params;
    private MemorySegment scratchIn;
    private MemorySegment scratchOut;
    private MemorySegment offHeapSrc;
    private MemorySegment offHeapDst;

    public FfmCalls() throws Throwable {
        params = (MemorySegment) PREPARE.invokeExact(arena.allocateFrom("blur"), arena.allocateFrom(""));
        if (params.equals(MemorySegment.NULL)) {
            throw new IllegalStateException("the C library refused the blur's default parameters");
        }
    }

    private static MemorySegment find(String name) {
        return LIB.find(name).orElseThrow(() -> new IllegalStateException(name + " not in " + NativeCalls.library()));
    }

    @Override
    public String id() {
        return "ffm";
    }

    @Override
    public void empty() {
        try {
            EMPTY.invokeExact();
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    @Override
    public int passCopy(byte[] src, byte[] dst) {
        if (scratchIn == null || scratchIn.byteSize() != src.length) {
            scratchIn = arena.allocate(src.length);
            scratchOut = arena.allocate(src.length);
        }
        MemorySegment.copy(src, 0, scratchIn, ValueLayout.JAVA_BYTE, 0, src.length);
        int rc;
        try {
            rc = (int) PASS_NATIVE.invokeExact(scratchIn, scratchOut, (long) src.length);
        } catch (Throwable e) {
            throw rethrow(e);
        }
        MemorySegment.copy(scratchOut, ValueLayout.JAVA_BYTE, 0, dst, 0, dst.length);
        return rc;
    }

    @Override
    public int passPinned(byte[] src, byte[] dst) {
        try {
            return (int) PASS_HEAP.invokeExact(MemorySegment.ofArray(src), MemorySegment.ofArray(dst),
                    (long) src.length);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    @Override
    public void allocateOffHeap(int bytes) {
        offHeapSrc = arena.allocate(bytes);
        offHeapDst = arena.allocate(bytes);
    }

    @Override
    public int passOffHeap() {
        try {
            return (int) PASS_NATIVE.invokeExact(offHeapSrc, offHeapDst, offHeapSrc.byteSize());
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    @Override
    public void blur(byte[] src, byte[] dst, int width, int height) {
        int rc;
        try {
            rc = (int) RUN_HEAP.invokeExact(params, 1, MemorySegment.ofArray(src), MemorySegment.ofArray(dst), width,
                    height);
        } catch (Throwable e) {
            throw rethrow(e);
        }
        if (rc != 0) {
            throw new IllegalStateException("C blur failed with code " + rc);
        }
    }

    @Override
    public void close() {
        try {
            RELEASE.invokeExact(params);
        } catch (Throwable e) {
            throw rethrow(e);
        }
        arena.close();
    }

    private static RuntimeException rethrow(Throwable e) {
        if (e instanceof RuntimeException r) {
            return r;
        }
        if (e instanceof Error err) {
            throw err;
        }
        return new IllegalStateException(e);
    }
}
