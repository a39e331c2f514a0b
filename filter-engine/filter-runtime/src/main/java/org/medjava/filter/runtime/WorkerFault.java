package org.medjava.filter.runtime;

/**
 * A filter call that failed in its worker process: the worker ended, was killed, or ran out of memory or threads
 * (the worker is replaced), or the plugin's code threw there. The message names the filter, its plugin and the
 * limit it hit.
 */
final class WorkerFault extends RuntimeException {
    private final boolean pluginThrew;

    WorkerFault(String message, boolean pluginThrew) {
        super(message);
        this.pluginThrew = pluginThrew;
    }

    /** The plugin's code threw (a defect: its plugin is FAILED at once, as in-process); else a limit was hit. */
    boolean pluginThrew() {
        return pluginThrew;
    }
}
