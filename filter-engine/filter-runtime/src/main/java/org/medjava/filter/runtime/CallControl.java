package org.medjava.filter.runtime;

import java.time.Duration;
import org.medjava.filter.Cancellation;

/**
 * A caller's handle on its filter calls: the deadline they run under and a way to cancel them. One control may
 * span several calls (a filter chain); the deadline is absolute, so the chain as a whole gets the time asked. The
 * registry caps it by its own {@link CallLimits#deadline()}. Thread-safe: {@link #cancel} is meant to be called from
 * another thread (a client that hung up, a job that was cancelled).
 */
public final class CallControl {
    private final long deadlineNanos;
    private final Duration timeout;
    private final Duration slotWait;
    private volatile String cancelled;
    private volatile Cancellation.Token running;

    /** @param timeout the most the calls may take from now; null for no limit beyond the registry's */
    public CallControl(Duration timeout) {
        this(timeout, null);
    }

    /**
     * @param timeout  as {@link #CallControl(Duration)}
     * @param slotWait how long a call may wait for a free slot instead of {@link CallLimits#queueWait()} (a
     *                 background job that would rather wait than fail); null for the registry's
     */
    private volatile boolean versionGone;

    public CallControl(Duration timeout, Duration slotWait) {
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new IllegalArgumentException("a filter call timeout must be positive: " + timeout);
        }
        if (slotWait != null && slotWait.isNegative()) {
            throw new IllegalArgumentException("a slot wait cannot be negative: " + slotWait);
        }
        this.timeout = timeout;
        this.slotWait = slotWait;
        this.deadlineNanos = timeout == null ? Long.MAX_VALUE : System.nanoTime() + saturatedNanos(timeout);
    }

    /** No limit beyond the registry's; cancellable. */
    public static CallControl unlimited() {
        return new CallControl(null);
    }

    /**
     * Cancels the call running now, if any, and every later call through this control. The caller waiting in the
     * registry gets {@link RegistryException.CallCancelledException} once the filter stops.
     */
    public void cancel(String reason) {
        String why = reason == null || reason.isBlank() ? "cancelled by the caller" : reason;
        synchronized (this) {
            if (cancelled == null) {
                cancelled = why;
            }
        }
        Cancellation.Token token = running;
        if (token != null) {
            token.cancel(why);
        }
    }

    /**
     * The host's plugin version is gone (a filter worker is told so with its cancellation): as for a version retired
     * here, a call that finishes anyway keeps its result.
     */
    void versionGone() {
        versionGone = true;
    }

    boolean isVersionGone() {
        return versionGone;
    }

    public boolean isCancelled() {
        return cancelled != null;
    }

    /** Why it was cancelled, or null. */
    public String cancelReason() {
        return cancelled;
    }

    /** The timeout asked, or null. */
    public Duration timeout() {
        return timeout;
    }

    /** The slot wait asked, or null for the registry's. */
    public Duration slotWait() {
        return slotWait;
    }

    long deadlineNanos() {
        return deadlineNanos;
    }

    /** Binds the token of the call now running; a control cancelled before cancels it at once. */
    void attach(Cancellation.Token token) {
        running = token;
        String why = cancelled;
        if (why != null) {
            token.cancel(why);
        }
    }

    void detach(Cancellation.Token token) {
        if (running == token) {
            running = null;
        }
    }

    static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 4;
        }
    }
}
