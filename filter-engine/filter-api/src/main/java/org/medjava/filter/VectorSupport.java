package org.medjava.filter;

/**
 * Whether plugins may run their Vector API kernels: the JVM was started with
 * {@code --add-modules jdk.incubator.vector}, {@code -Dmedjava.filters.scalar=true} does not ask for the scalar
 * code, and the CPU's preferred vectors have at least {@value #MIN_BITS} bits. Checked without linking a class of
 * that module (the shape is read reflectively), so a plugin loads and runs on any Java 17 JVM. One answer for every
 * plugin (API 1.1; each plugin used to carry its own copy).
 *
 * <p>Why 256 bits: the kernels widen bytes into lanes of shorts and ints and narrow them back, and with 128-bit
 * vectors (ARM NEON, x86 without AVX) an int vector has 4 lanes, whose bytes would be a 32-bit vector, a shape the
 * Vector API does not have: blur, edge detect and pixelize failed in their class initializers
 * ({@code -XX:MaxVectorSize=16}). There the scalar code runs; filter-plugins' tests run once more that way.
 */
public final class VectorSupport {
    /** The narrowest preferred vector, in bits, with which the kernels run. */
    public static final int MIN_BITS = 256;

    /** Decided once, when the class is initialized; never changes afterwards. */
    public static final boolean AVAILABLE = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
            && !Boolean.getBoolean("medjava.filters.scalar") && preferredBits() >= MIN_BITS;

    private VectorSupport() {
    }

    /** {@code VectorShape.preferredShape().vectorBitSize()}, or 0 if it cannot be read. */
    private static int preferredBits() {
        try {
            Class<?> shape = Class.forName("jdk.incubator.vector.VectorShape");
            Object preferred = shape.getMethod("preferredShape").invoke(null);
            return (Integer) shape.getMethod("vectorBitSize").invoke(preferred);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return 0;
        }
    }
}
