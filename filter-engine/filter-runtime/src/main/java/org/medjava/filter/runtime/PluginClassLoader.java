package org.medjava.filter.runtime;

import java.net.URL;
import java.net.URLClassLoader;

/**
 * One plugin JAR's class loader. The JDK and the filter API always come from the parent, so plugin and host
 * share the same {@code Filter} type; everything else is looked up in the JAR first, so a plugin's classes stay
 * its own even when the host's class path happens to hold another copy of them (tests, fat JARs).
 */
final class PluginClassLoader extends URLClassLoader {
    static {
        registerAsParallelCapable();
    }

    PluginClassLoader(String name, URL jar, ClassLoader apiLoader) {
        super(name, new URL[] {jar}, apiLoader);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (isShared(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                try {
                    c = findClass(name);
                } catch (ClassNotFoundException e) {
                    c = getParent().loadClass(name);
                }
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    /** The JDK and the filter API packages ({@code org.medjava.filter} and {@code org.medjava.filter.spi}). */
    private static boolean isShared(String name) {
        if (name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.") || name.startsWith("sun.")) {
            return true;
        }
        int lastDot = name.lastIndexOf('.');
        String pkg = lastDot < 0 ? "" : name.substring(0, lastDot);
        return pkg.equals("org.medjava.filter") || pkg.equals("org.medjava.filter.spi");
    }
}
