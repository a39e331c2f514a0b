package org.medjava.filter;

/**
 * Whether plugins may run their Vector API kernels: the JVM was started with
 * {@code --add-modules jdk.incubator.vector}, and {@code -Dmedjava.filters.scalar=true} does not ask for the scalar
 * code. Checked without touching a class of that module, so a plugin loads and runs on any Java 17 JVM. One answer
 * for every plugin (API 1.1; each plugin used to carry its own copy).
 */
public final class VectorSupport {
    /** Decided once, when the class is initialized; never changes afterwards. */
    public static final boolean AVAILABLE = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
            && !Boolean.getBoolean("medjava.filters.scalar");

    private VectorSupport() {
    }
}
