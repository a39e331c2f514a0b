package org.medjava.filter.runtime;

import org.medjava.filter.Cancellation;

/** One filter call in flight: its token and, once cancelled, why (so the caller gets the right refusal). */
final class RunningCall {
    enum Cause { DEADLINE, CALLER, PLUGIN_GONE }

    final String filterId;
    final Cancellation.Token token = new Cancellation.Token();
    private volatile Cause cause;

    RunningCall(String filterId) {
        this.filterId = filterId;
    }

    void cancel(Cause cause, String reason) {
        if (token.cancel(reason)) {
            this.cause = cause;
        }
    }

    /** The cause, once cancelled; a token cancelled straight through a {@link CallControl} counts as the caller. */
    Cause cause() {
        Cause c = cause;
        return c != null ? c : token.isCancelled() ? Cause.CALLER : null;
    }
}
