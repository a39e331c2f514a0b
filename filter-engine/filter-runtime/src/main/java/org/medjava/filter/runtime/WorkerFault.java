package org.medjava.filter.runtime;

/**
 * A filter call that failed in its worker process: the worker ended, was killed, or ran out of memory or threads
 * (the worker is replaced), or the plugin's code threw there. The message names the filter, its plugin and the
 * limit it hit.
 */
final class WorkerFault extends RuntimeException {
    private final boolean pluginThrew;
    private final boolean quarantine;

    WorkerFault(String message, boolean pluginThrew) {
        this(message, pluginThrew, false);
    }

    WorkerFault(String message, boolean pluginThrew, boolean quarantine) {
        super(message);
        this.pluginThrew = pluginThrew;
        this.quarantine = quarantine;
    }

    /** The plugin has faulted too often: the registry quarantines it (on the caller's thread, no worker held). */
    boolean quarantine() {
        return quarantine;
    }

    /** The plugin's code threw (a defect: its plugin is FAILED at once, as in-process); else a limit was hit. */
    boolean pluginThrew() {
        return pluginThrew;
    }
}
