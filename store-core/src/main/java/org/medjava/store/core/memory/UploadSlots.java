package org.medjava.store.core.memory;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Semaphore;
import org.medjava.store.core.BusyException;

/**
 * A cap on concurrent large uploads: a body of at least {@code largeBytes} (by its declared length, or — chunked —
 * as soon as that much of it has arrived) needs one of {@code maxConcurrent} slots, else 503 with Retry-After.
 * Small uploads never wait. Thread-safe.
 */
public final class UploadSlots {

    /** The settings that set the cap, named in refusals. */
    public static final String SETTINGS = "medjava.upload.max-concurrent-large, medjava.upload.large-bytes";

    private static final long RETRY_AFTER_SECONDS = 5;

    private final long largeBytes;
    private final int maxConcurrent;
    private final Semaphore slots;

    public UploadSlots(long largeBytes, int maxConcurrent) {
        if (largeBytes < 1 || maxConcurrent < 1) {
            throw new IllegalArgumentException("large uploads from " + largeBytes + " bytes, " + maxConcurrent
                    + " at once");
        }
        this.largeBytes = largeBytes;
        this.maxConcurrent = maxConcurrent;
        this.slots = new Semaphore(maxConcurrent);
    }

    /** Large uploads in progress. */
    public int inUse() {
        return maxConcurrent - slots.availablePermits();
    }

    /**
     * Admits an upload.
     *
     * @param declaredLength its Content-Length, or -1 when chunked (then {@link Slot#watch} takes the slot)
     * @throws BusyException when it is large and every slot is taken
     */
    public Slot admit(long declaredLength) {
        Slot slot = new Slot();
        if (declaredLength >= largeBytes) {
            slot.take();
        }
        return slot;
    }

    /** One upload's claim; close it when the upload is done (stored or refused). */
    public final class Slot implements AutoCloseable {
        private boolean held;

        private void take() {
            if (!slots.tryAcquire()) {
                throw new BusyException("the store is receiving " + maxConcurrent + " large uploads already (at least "
                        + largeBytes + " bytes each; " + SETTINGS + "): try again in a few seconds",
                        RETRY_AFTER_SECONDS);
            }
            held = true;
        }

        /** The body, taking a slot once {@code largeBytes} of it have been read (for a body of unknown length). */
        public InputStream watch(InputStream body) {
            if (held) {
                return body;
            }
            return new FilterInputStream(body) {
                private long read;

                @Override
                public int read() throws IOException {
                    int b = super.read();
                    counted(b < 0 ? 0 : 1);
                    return b;
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    int n = super.read(b, off, len);
                    counted(Math.max(n, 0));
                    return n;
                }

                private void counted(int n) {
                    read += n;
                    if (!held && read >= largeBytes) {
                        take();
                    }
                }
            };
        }

        public boolean held() {
            return held;
        }

        @Override
        public void close() {
            if (held) {
                held = false;
                slots.release();
            }
        }
    }
}
