package org.medjava.viewer.series;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import org.medjava.viewer.store.Progress;

/**
 * Loads the images of a stack around the one on screen (the focus) on worker threads, into a
 * {@link ByteBoundedCache}: the focus first, then its neighbours nearest first, those in the scrolling direction
 * before those behind, never farther than {@code reach} from the focus. When the focus moves, loads that are now out
 * of reach are cancelled (their {@link Progress} says so and their thread is interrupted, which stops a download)
 * and their results dropped. At most {@code threads} loads run at once; none ever runs on the caller's thread.
 * Each index is tried at most once per focus, so a cache too small for the reach cannot make it load in circles.
 */
public final class Prefetcher<V> implements AutoCloseable {

    /** Loads item {@code index}; long loads check {@code progress.cancelled()} or respond to interrupts. */
    @FunctionalInterface
    public interface Loader<V> {
        V load(int index, Progress progress) throws Exception;
    }

    /** Hears about finished loads, on the loading thread. */
    public interface Listener<V> {
        void loaded(int index, V value);

        void failed(int index, Exception e);
    }

    private record Running(Thread thread, AtomicBoolean cancelled) {
    }

    private final ByteBoundedCache<Integer, V> cache;
    private final Loader<V> loader;
    private final Listener<V> listener;
    private final ExecutorService pool;
    private final int threads;
    private final int count;
    private final Map<Integer, Running> inFlight = new HashMap<>();
    private final Set<Integer> attempted = new HashSet<>();
    private int reach;
    private int focus = -1;
    private int direction = 1;
    private int pumps;
    private long loads;
    private long cancellations;
    private boolean closed;

    public Prefetcher(int count, int reach, int threads, ByteBoundedCache<Integer, V> cache, Loader<V> loader,
                      Listener<V> listener, ExecutorService pool) {
        if (count < 1 || threads < 1 || reach < 0) {
            throw new IllegalArgumentException("count " + count + ", threads " + threads + ", reach " + reach);
        }
        this.count = count;
        this.reach = reach;
        this.threads = threads;
        this.cache = cache;
        this.loader = loader;
        this.listener = listener;
        this.pool = pool;
    }

    /** Moves the focus to {@code index}: cancels what is out of reach and loads what is missing around it. */
    public synchronized void focus(int index) {
        if (index < 0 || index >= count) {
            throw new IndexOutOfBoundsException("item " + index + " of " + count);
        }
        if (closed) {
            return;
        }
        if (focus >= 0 && index != focus) {
            direction = index > focus ? 1 : -1;
        }
        focus = index;
        attempted.clear();
        attempted.addAll(inFlight.keySet());
        cancelOutOfReach();
        while (pumps < threads && nextWanted(false) != null) {
            pumps++;
            pool.execute(this::pump);
        }
    }

    /** Changes how far ahead and behind to load (after the first image tells how large images are). */
    public synchronized void setReach(int reach) {
        this.reach = Math.max(0, reach);
        if (focus >= 0) {
            focus(focus);
        }
    }

    public synchronized int reach() {
        return reach;
    }

    public synchronized int focusIndex() {
        return focus;
    }

    /** Loads finished and kept. */
    public synchronized long loads() {
        return loads;
    }

    /** Loads cancelled because the focus moved away. */
    public synchronized long cancellations() {
        return cancellations;
    }

    /** Indices being loaded now. */
    public synchronized Set<Integer> inFlight() {
        return Set.copyOf(inFlight.keySet());
    }

    public ByteBoundedCache<Integer, V> cache() {
        return cache;
    }

    public int count() {
        return count;
    }

    /** Stops: cancels every load; later focus calls do nothing. */
    @Override
    public synchronized void close() {
        closed = true;
        inFlight.values().forEach(Prefetcher::cancel);
    }

    private void cancelOutOfReach() {
        inFlight.forEach((index, running) -> {
            if (Math.abs(index - focus) > reach) {
                cancel(running);
            }
        });
    }

    private static void cancel(Running running) {
        if (running.cancelled().compareAndSet(false, true)) {
            running.thread().interrupt();
        }
    }

    /** The nearest index in reach that is neither cached, loading nor tried for this focus; null when none. */
    private Integer nextWanted(boolean claim) {
        if (closed || focus < 0) {
            return null;
        }
        for (int d = 0; d <= reach; d++) {
            for (int index : d == 0 ? new int[] {focus} : new int[] {focus + d * direction, focus - d * direction}) {
                if (index >= 0 && index < count && !attempted.contains(index) && !cache.contains(index)) {
                    if (claim) {
                        attempted.add(index);
                    }
                    return index;
                }
            }
        }
        return null;
    }

    private void pump() {
        while (true) {
            int index;
            Running running;
            synchronized (this) {
                Integer next = nextWanted(true);
                if (next == null) {
                    pumps--;
                    return;
                }
                index = next;
                running = new Running(Thread.currentThread(), new AtomicBoolean());
                inFlight.put(index, running);
            }
            V value = null;
            Exception failure = null;
            try {
                value = loader.load(index, new Progress() {
                    @Override
                    public void update(long done, long total) {
                        // prefetches are silent
                    }

                    @Override
                    public boolean cancelled() {
                        return running.cancelled().get();
                    }
                });
            } catch (CancellationException | InterruptedException e) {
                running.cancelled().set(true);
            } catch (Exception e) {
                failure = e;
            }
            boolean keep;
            synchronized (this) {
                inFlight.remove(index);
                // no cancel can reach this thread any more: clear an interrupt that arrived after the load
                Thread.interrupted();
                keep = !running.cancelled().get() && failure == null && value != null;
                if (running.cancelled().get()) {
                    cancellations++;
                } else if (keep) {
                    loads++;
                    cache.put(index, value);
                }
            }
            if (keep) {
                listener.loaded(index, value);
            } else if (failure != null && !running.cancelled().get()) {
                listener.failed(index, failure);
            }
        }
    }
}
