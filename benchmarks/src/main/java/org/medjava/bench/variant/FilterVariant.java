package org.medjava.bench.variant;

/**
 * One implementation of one filter bound to a source and destination image. {@link #run} does the work every
 * variant does: copy the source to the destination, then filter the whole image; it returns the result so the JIT
 * cannot drop the work.
 */
public interface FilterVariant extends AutoCloseable {

    Object run();

    /** Frees native resources; the default has none. */
    @Override
    default void close() {
    }
}
