package org.medjava.store.core.render;

import org.medjava.filter.runtime.CallControl;

/**
 * The {@link CallControl} the filter calls of the current request run under: a resource binds one around a
 * rendering (its client's {@code timeout=} and a cancel on hang-up), and every registry call {@link RenderService}
 * makes on that thread — renders, derived objects, DICOMweb rendered — uses it. Without one bound, calls run under
 * the registry's own deadline only. Thread-bound because the renderer's entry points are shared by paths that
 * know nothing of HTTP (jobs, derived objects), and adding a parameter to each would thread it through all of them.
 */
public final class FilterCallScope implements AutoCloseable {
    private static final ThreadLocal<CallControl> CURRENT = new ThreadLocal<>();

    private final CallControl previous;

    private FilterCallScope(CallControl control) {
        this.previous = CURRENT.get();
        CURRENT.set(control);
    }

    /** How long a background job's filter call waits for a free slot: a job would rather wait than fail. */
    public static final java.time.Duration JOB_SLOT_WAIT = java.time.Duration.ofMinutes(2);

    /**
     * For background jobs: each call under the registry's deadline, waiting up to {@link #JOB_SLOT_WAIT} for a
     * slot where a request would be refused with 503 after a short wait.
     */
    public static FilterCallScope forJob() {
        return bind(new CallControl(null, JOB_SLOT_WAIT));
    }

    /** Binds {@code control} to this thread until {@link #close()}. */
    public static FilterCallScope bind(CallControl control) {
        return new FilterCallScope(control);
    }

    /** The control bound to this thread, or a fresh unlimited one. */
    static CallControl current() {
        CallControl control = CURRENT.get();
        return control != null ? control : CallControl.unlimited();
    }

    @Override
    public void close() {
        if (previous == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(previous);
        }
    }
}
