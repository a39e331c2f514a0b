package org.medjava.plugin.emboss;

/**
 * Whether the Vector API kernels may run: the JVM was started with {@code --add-modules jdk.incubator.vector}, and
 * {@code -Dmedjava.filters.scalar=true} does not ask for the scalar code. Checked without touching a class of the
 * module, so the plugin loads and runs on any Java 17 JVM.
 */
final class VectorSupport {
    static final boolean AVAILABLE = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
            && !Boolean.getBoolean("medjava.filters.scalar");

    private VectorSupport() {
    }
}
