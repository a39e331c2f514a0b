package org.medjava.filter.runtime;

import java.time.Duration;

/**
 * How the registry bounds filter calls.
 *
 * @param maxConcurrent calls that may run at once; one more is refused with
 *                      {@link RegistryException.BusyException} instead of queueing
 * @param deadline      the most any call may take (a caller may ask for less with {@link CallControl}); null for none
 * @param grace         how long a cancelled call has to stop (at its next {@code Cancellation.check()}) before its
 *                      plugin is quarantined and its thread abandoned
 * @param queueWait     how long a call may wait for a free slot before it is refused (zero: refused at once), so a
 *                      short burst queues instead of failing
 */
public record CallLimits(int maxConcurrent, Duration deadline, Duration grace, Duration queueWait) {

    /** For embedded hosts (viewer, CLI): twice as many calls as cores, no deadline, 2 s of grace, 5 s queue. */
    public static CallLimits defaults() {
        return new CallLimits(Math.max(2, 2 * Runtime.getRuntime().availableProcessors()), null,
                Duration.ofSeconds(2), Duration.ofSeconds(5));
    }

    /** Limits whose full pool refuses at once. */
    public CallLimits(int maxConcurrent, Duration deadline, Duration grace) {
        this(maxConcurrent, deadline, grace, Duration.ZERO);
    }

    public CallLimits {
        if (maxConcurrent < 1) {
            throw new IllegalArgumentException("maxConcurrent must be at least 1: " + maxConcurrent);
        }
        if (deadline != null && (deadline.isNegative() || deadline.isZero())) {
            throw new IllegalArgumentException("deadline must be positive: " + deadline);
        }
        if (grace == null || grace.isNegative()) {
            throw new IllegalArgumentException("grace must be zero or positive: " + grace);
        }
        if (queueWait == null || queueWait.isNegative()) {
            throw new IllegalArgumentException("queueWait must be zero or positive: " + queueWait);
        }
    }
}
