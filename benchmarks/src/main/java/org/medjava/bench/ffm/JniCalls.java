package org.medjava.bench.ffm;

import java.nio.ByteBuffer;

/** {@link NativeCalls} through JNI: the entry points {@code Java_org_medjava_bench_ffm_JniCalls_*} of call_bench.c. */
public final class JniCalls implements NativeCalls {
    private static volatile boolean loaded;

    private long params;
    private long scratchIn;
    private long scratchOut;
    private int scratchBytes;
    private ByteBuffer offHeapSrc;
    private ByteBuffer offHeapDst;

    public JniCalls() {
        load();
        params = prepare("blur", "");
        if (params == 0) {
            throw new IllegalStateException("the C library refused the blur's default parameters");
        }
    }

    private static synchronized void load() {
        if (!loaded) {
            System.load(NativeCalls.library().toAbsolutePath().toString());
            loaded = true;
        }
    }

    @Override
    public String id() {
        return "jni";
    }

    @Override
    public void empty() {
        emptyCall();
    }

    @Override
    public int passCopy(byte[] src, byte[] dst) {
        if (scratchBytes != src.length) {
            freeScratch();
            scratchIn = allocate(src.length);
            scratchOut = allocate(src.length);
            scratchBytes = src.length;
            if (scratchIn == 0 || scratchOut == 0) {
                throw new OutOfMemoryError("native scratch buffers of " + src.length + " bytes");
            }
        }
        return passCopy(src, dst, scratchIn, scratchOut);
    }

    @Override
    public int passPinned(byte[] src, byte[] dst) {
        return passCritical(src, dst);
    }

    @Override
    public void allocateOffHeap(int bytes) {
        offHeapSrc = ByteBuffer.allocateDirect(bytes);
        offHeapDst = ByteBuffer.allocateDirect(bytes);
    }

    @Override
    public int passOffHeap() {
        return passDirect(offHeapSrc, offHeapDst);
    }

    @Override
    public void blur(byte[] src, byte[] dst, int width, int height) {
        int rc = runCritical(params, 1, src, dst, width, height);
        if (rc != 0) {
            throw new IllegalStateException("C blur failed with code " + rc);
        }
    }

    @Override
    public void close() {
        freeScratch();
        if (params != 0) {
            release(params);
            params = 0;
        }
    }

    private void freeScratch() {
        if (scratchBytes != 0) {
            free(scratchIn);
            free(scratchOut);
            scratchBytes = 0;
        }
    }

    private static native void emptyCall();

    private static native long allocate(long bytes);

    private static native void free(long address);

    private static native int passCopy(byte[] src, byte[] dst, long scratchIn, long scratchOut);

    private static native int passCritical(byte[] src, byte[] dst);

    private static native int passDirect(ByteBuffer src, ByteBuffer dst);

    private static native long prepare(String filterId, String params);

    private static native void release(long params);

    private static native int runCritical(long params, int impl, byte[] src, byte[] dst, int width, int height);
}
