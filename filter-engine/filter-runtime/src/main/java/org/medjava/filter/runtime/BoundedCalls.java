package org.medjava.filter.runtime;

import java.lang.System.Logger.Level;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.medjava.filter.Cancellation;

/**
 * Runs filter calls on a bounded pool, each under a deadline. The caller waits; when the deadline passes, the
 * caller's {@link CallControl} cancels, or the plugin goes away, the call's token is cancelled, and a filter that
 * honours {@link Cancellation#check()} stops within a row. One that does not stop within the grace period is
 * abandoned: its permit is given back (so it no longer counts against the pool, later calls get a fresh thread) and
 * the registry quarantines its plugin.
 */
final class BoundedCalls implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(BoundedCalls.class.getName());
    /** How often a waiting caller looks at its deadline and its token. */
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** What the registry does with a plugin whose call ignored its cancellation. */
    interface Quarantine {
        void quarantine(LoadedPlugin plugin, String reason);
    }

    private final Quarantine quarantine;
    private final ExecutorService threads;
    private final AtomicInteger threadNumber = new AtomicInteger();
    private final AtomicLong deadlineHits = new AtomicLong();
    private final AtomicLong abandoned = new AtomicLong();
    private volatile CallLimits limits;
    private volatile Semaphore permits;

    BoundedCalls(CallLimits limits, Quarantine quarantine) {
        this.quarantine = quarantine;
        this.threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "filter-call-" + threadNumber.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        setLimits(limits);
    }

    /** New limits apply to calls that start from now; calls running keep the permits of the old pool. */
    void setLimits(CallLimits limits) {
        this.limits = limits;
        this.permits = new Semaphore(limits.maxConcurrent());
    }

    CallLimits limits() {
        return limits;
    }

    int available() {
        return permits.availablePermits();
    }

    long deadlineHits() {
        return deadlineHits.get();
    }

    long abandonedThreads() {
        return abandoned.get();
    }

    /**
     * Runs {@code body} for an acquired {@code plugin} and releases the plugin when the body ends (which, for an
     * abandoned call, is never: its plugin then is never finalized, as it is still running).
     *
     * @throws RegistryException.BusyException every permit is taken
     * @throws RegistryException.DeadlineExceededException the deadline passed
     * @throws RegistryException.CallCancelledException the caller cancelled or the plugin was removed or replaced
     * @throws ExecutionException what the body threw, for the registry to judge
     */
    <T> T run(LoadedPlugin plugin, String filterId, CallControl control, Callable<T> body) throws ExecutionException {
        CallLimits callLimits = limits;
        Semaphore pool = permits;
        if (control.isCancelled() && !control.isVersionGone()) { // a gone version's call still runs, as it would have
            plugin.release();
            throw new RegistryException.CallCancelledException(filterId + ": " + control.cancelReason());
        }
        // waiting for a slot counts against the caller's own timeout, not against the registry's deadline
        if (!acquire(pool, control.slotWait() != null ? control.slotWait() : callLimits.queueWait(),
                control.deadlineNanos())) {
            plugin.release();
            throw new RegistryException.BusyException("all " + callLimits.maxConcurrent() + " filter slots are busy;"
                    + " try again in a moment", 1);
        }
        long deadline = deadline(callLimits, control);
        RunningCall call = new RunningCall(filterId);
        AtomicBoolean permitHeld = new AtomicBoolean(true);
        Future<T> future;
        try {
            plugin.track(call);
            control.attach(call.token);
            future = threads.submit(() -> {
                try (Cancellation.Scope bound = Cancellation.bind(call.token)) {
                    return PluginCalls.call(plugin.loader, body);
                } finally {
                    plugin.untrack(call);
                    control.detach(call.token);
                    if (permitHeld.compareAndSet(true, false)) {
                        pool.release();
                    }
                    plugin.release();
                }
            });
        } catch (RuntimeException e) { // the executor refused (closed)
            plugin.untrack(call);
            control.detach(call.token);
            pool.release();
            plugin.release();
            throw new RegistryException.FilterUnavailableException(filterId + ": the registry is closed");
        }
        return await(plugin, call, future, deadline, callLimits, permitHeld, pool, control);
    }

    private <T> T await(LoadedPlugin plugin, RunningCall call, Future<T> future, long deadline, CallLimits callLimits,
                        AtomicBoolean permitHeld, Semaphore pool, CallControl control) throws ExecutionException {
        boolean interrupted = false;
        long cancelledAt = 0;
        long graceNanos = CallControl.saturatedNanos(callLimits.grace());
        try {
            while (true) {
                long now = System.nanoTime();
                long wait;
                if (call.token.isCancelled()) {
                    if (cancelledAt == 0) {
                        cancelledAt = now;
                    }
                    wait = cancelledAt + graceNanos - now;
                    if (wait <= 0) {
                        throw abandon(plugin, call, future, permitHeld, pool, callLimits);
                    }
                } else if (now - deadline >= 0) {
                    deadlineHits.incrementAndGet();
                    call.cancel(RunningCall.Cause.DEADLINE, call.filterId + " did not finish within "
                            + describe(control, callLimits));
                    continue;
                } else {
                    wait = Math.min(POLL_NANOS, deadline - now);
                }
                try {
                    T result = future.get(Math.min(wait, POLL_NANOS), TimeUnit.NANOSECONDS);
                    if (call.token.isCancelled() && call.cause() != RunningCall.Cause.PLUGIN_GONE
                            && !control.isVersionGone()) {
                        // the caller has given up on it, and it may be partial (a filter that swallowed
                        // FilterCancelledException). A version replaced mid-call that did not check finished
                        // its work: that result stands, as it did before cancellation existed.
                        throw cancelled(call);
                    }
                    return result;
                } catch (TimeoutException e) {
                    // look at the deadline and the token again
                } catch (InterruptedException e) {
                    interrupted = true;
                    call.cancel(RunningCall.Cause.CALLER, call.filterId + ": the caller was interrupted");
                } catch (ExecutionException e) {
                    if (call.token.isCancelled()) {
                        throw cancelled(call);
                    }
                    throw e;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private RegistryException abandon(LoadedPlugin plugin, RunningCall call, Future<?> future,
                                      AtomicBoolean permitHeld, Semaphore pool, CallLimits callLimits) {
        if (permitHeld.compareAndSet(true, false)) {
            pool.release(); // the stuck thread no longer counts against the pool
        }
        future.cancel(true); // an interrupt, in case it waits on something that listens
        abandoned.incrementAndGet();
        String reason = "quarantined: filter " + call.filterId + " ignored its cancellation (" + call.token.reason()
                + ") and was still running " + callLimits.grace().toMillis() + " ms later; its thread is abandoned";
        LOG.log(Level.WARNING, "plugin " + plugin.id + " " + plugin.version + " " + reason);
        quarantine.quarantine(plugin, reason);
        RegistryException refusal = cancelled(call);
        refusal.addSuppressed(new IllegalStateException(reason));
        return refusal;
    }

    private static RegistryException cancelled(RunningCall call) {
        String reason = call.token.reason();
        return call.cause() == RunningCall.Cause.DEADLINE
                ? new RegistryException.DeadlineExceededException(reason)
                : new RegistryException.CallCancelledException(reason);
    }

    /** A slot, waited for at most {@code queueWait} and never past {@code deadline}; false when none came. */
    private static boolean acquire(Semaphore pool, java.time.Duration queueWait, long deadline) {
        if (pool.tryAcquire()) {
            return true;
        }
        long wait = CallControl.saturatedNanos(queueWait);
        if (deadline != Long.MAX_VALUE) {
            wait = Math.min(wait, deadline - System.nanoTime());
        }
        if (wait <= 0) {
            return false;
        }
        try {
            return pool.tryAcquire(wait, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static long deadline(CallLimits limits, CallControl control) {
        long now = System.nanoTime();
        long own = limits.deadline() == null ? Long.MAX_VALUE : now + CallControl.saturatedNanos(limits.deadline());
        long asked = control.deadlineNanos();
        if (asked == Long.MAX_VALUE) {
            return own == Long.MAX_VALUE ? now + Long.MAX_VALUE / 2 : own;
        }
        return own == Long.MAX_VALUE || asked - own < 0 ? asked : own;
    }

    private static String describe(CallControl control, CallLimits limits) {
        if (control.timeout() != null && (limits.deadline() == null || control.timeout().compareTo(limits.deadline()) < 0)) {
            return "the " + seconds(control.timeout()) + " asked";
        }
        return "the deadline of " + seconds(limits.deadline());
    }

    private static String seconds(java.time.Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms / 1000.0 + " s";
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }
}
