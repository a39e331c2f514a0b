package org.medjava.filter.runtime;

import java.lang.System.Logger.Level;
import java.util.concurrent.Callable;

/** Runs plugin code with the plugin's class loader as context loader, and turns what it throws into a reason. */
final class PluginCalls {
    private static final System.Logger LOG = System.getLogger(PluginCalls.class.getName());

    private PluginCalls() {
    }

    static <T> T call(ClassLoader loader, Callable<T> body) throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return body.call();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** For life-cycle calls whose failure must not stop the caller (fini on unload). */
    static void quietly(ClassLoader loader, Runnable body, String what) {
        try {
            call(loader, () -> {
                body.run();
                return null;
            });
        } catch (Throwable t) {
            if (t instanceof VirtualMachineError && !(t instanceof StackOverflowError)) {
                throw (VirtualMachineError) t;
            }
            LOG.log(Level.WARNING, what + " threw " + reason(t));
        }
    }

    /** "ExceptionClass: message" plus the first cause, short enough for a status line. */
    static String reason(Throwable t) {
        StringBuilder sb = new StringBuilder(t.getClass().getName());
        if (t.getMessage() != null) {
            sb.append(": ").append(t.getMessage());
        }
        Throwable cause = t.getCause();
        if (cause != null && cause != t) {
            sb.append(" (caused by ").append(cause.getClass().getName());
            if (cause.getMessage() != null) {
                sb.append(": ").append(cause.getMessage());
            }
            sb.append(')');
        }
        return sb.toString();
    }
}
