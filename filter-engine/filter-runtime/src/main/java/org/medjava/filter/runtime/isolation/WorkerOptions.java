package org.medjava.filter.runtime.isolation;

import java.time.Duration;

/**
 * How a host runs plugin code out of its own process: in a pool of filter worker processes, each confined by what
 * the operating system offers ({@link Sandbox}).
 *
 * @param workers                processes in the pool; each runs one call at a time, further calls wait for one
 * @param heapMiB                each worker's Java heap ({@code -Xmx}); its memory cap (cgroup) is this plus
 *                               {@link #NATIVE_MIB} for the JVM's own code, metaspace and thread stacks
 * @param maxTasks               processes and threads a worker may have (cgroup {@code pids.max}); the JVM itself
 *                               needs about 20
 * @param killAfter              how long a cancelled call has to stop before its worker is killed and replaced
 * @param faultsBeforeQuarantine how many faults (worker exited, killed, out of memory or threads) a plugin may cause
 *                               before it is quarantined; a call that ignores its cancellation is quarantined at once
 * @param requireSandbox         refuse to start workers when the operating system offers no confinement beyond a
 *                               separate process (no namespaces): plugins then do not load
 */
public record WorkerOptions(int workers, int heapMiB, int maxTasks, Duration killAfter, int faultsBeforeQuarantine,
                            boolean requireSandbox) {
    /** What a worker's memory cap grants beyond its heap. */
    public static final int NATIVE_MIB = 192;

    public WorkerOptions {
        if (workers < 1 || workers > 64) {
            throw new IllegalArgumentException("filter workers must be 1..64: " + workers);
        }
        if (heapMiB < 32) {
            throw new IllegalArgumentException("a filter worker's heap must be at least 32 MiB: " + heapMiB);
        }
        if (maxTasks < 32) {
            throw new IllegalArgumentException("a filter worker needs at least 32 tasks (threads): " + maxTasks);
        }
        if (killAfter == null || killAfter.isNegative()) {
            throw new IllegalArgumentException("killAfter must be zero or positive: " + killAfter);
        }
        if (faultsBeforeQuarantine < 1) {
            throw new IllegalArgumentException("faultsBeforeQuarantine must be at least 1: " + faultsBeforeQuarantine);
        }
    }

    /** One worker per core (at least two), 512 MiB of heap, 128 tasks, 1 s to stop, quarantine at the third fault. */
    public static WorkerOptions defaults() {
        return new WorkerOptions(Math.max(2, Runtime.getRuntime().availableProcessors()), 512, 128,
                Duration.ofSeconds(1), 3, false);
    }

    public WorkerOptions withWorkers(int n) {
        return new WorkerOptions(n, heapMiB, maxTasks, killAfter, faultsBeforeQuarantine, requireSandbox);
    }

    public WorkerOptions withHeapMiB(int mib) {
        return new WorkerOptions(workers, mib, maxTasks, killAfter, faultsBeforeQuarantine, requireSandbox);
    }

    public WorkerOptions withMaxTasks(int tasks) {
        return new WorkerOptions(workers, heapMiB, tasks, killAfter, faultsBeforeQuarantine, requireSandbox);
    }

    public WorkerOptions withRequireSandbox(boolean require) {
        return new WorkerOptions(workers, heapMiB, maxTasks, killAfter, faultsBeforeQuarantine, require);
    }

    /** The memory cap of one worker, in bytes. */
    public long memoryCapBytes() {
        return (long) (heapMiB + NATIVE_MIB) << 20;
    }
}
