package org.medjava.viewer.series;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PrefetcherTest {
    private static final int ITEM = 100;
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final List<Integer> loaded = new CopyOnWriteArrayList<>();
    /** The loads in the order their loader was entered (with two workers, completion order is the scheduler's). */
    private final List<Integer> started = new CopyOnWriteArrayList<>();
    private final List<Integer> failed = new CopyOnWriteArrayList<>();
    private final Set<String> loaderThreads = ConcurrentHashMap.newKeySet();
    private final Prefetcher.Listener<byte[]> listener = new Prefetcher.Listener<>() {
        @Override
        public void loaded(int index, byte[] value) {
            loaded.add(index);
        }

        @Override
        public void failed(int index, Exception e) {
            failed.add(index);
        }
    };

    @AfterEach
    void stop() throws InterruptedException {
        pool.shutdownNow();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    private Prefetcher<byte[]> prefetcher(int count, int reach, long budget, Prefetcher.Loader<byte[]> loader) {
        return new Prefetcher<>(count, reach, 2, new ByteBoundedCache<>(budget, b -> b.length), (i, p) -> {
            loaderThreads.add(Thread.currentThread().getName());
            started.add(i);
            return loader.load(i, p);
        }, listener, pool);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(5);
        }
    }

    @Test
    void loadsTheFocusFirstThenNeighboursNearestFirstWithinReachOnWorkerThreads() throws Exception {
        var p = prefetcher(100, 3, 10_000, (i, progress) -> new byte[ITEM]);
        p.focus(50);
        await("the reach is loaded", () -> p.cache().size() == 7);
        // the image on screen goes first: it starts in the first round of the two workers (which of the two finishes
        // first is the machine's scheduling)
        assertThat(started.subList(0, 2)).as("the image on screen first").contains(50);
        assertThat(loaded).containsExactlyInAnyOrder(47, 48, 49, 50, 51, 52, 53);
        assertThat(loaderThreads).doesNotContain(Thread.currentThread().getName());
        Thread.sleep(50);
        assertThat(p.loads()).as("nothing beyond the reach").isEqualTo(7);
        // one step down: only the one new neighbour ahead is loaded
        p.focus(51);
        await("54 is loaded", () -> p.cache().contains(54));
        Thread.sleep(50);
        assertThat(p.loads()).isEqualTo(8);
    }

    @Test
    void loadsThatScrolledOutOfReachAreCancelledAndDropped() throws Exception {
        CountDownLatch started = new CountDownLatch(2);
        // items below 10 take "forever" (until cancelled, as a download does when interrupted)
        var p = prefetcher(100, 2, 10_000, (i, progress) -> {
            if (i < 10) {
                started.countDown();
                while (!progress.cancelled()) {
                    Thread.sleep(10_000);
                }
                throw new java.util.concurrent.CancellationException();
            }
            return new byte[ITEM];
        });
        p.focus(0);
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.inFlight()).containsExactlyInAnyOrder(0, 1);
        p.focus(60);
        await("the new reach is loaded", () -> p.cache().size() == 5);
        await("the old loads ended", () -> p.cancellations() == 2);
        assertThat(p.inFlight()).isEmpty();
        assertThat(loaded).containsExactlyInAnyOrder(58, 59, 60, 61, 62);
        assertThat(p.cache().contains(0)).isFalse();
        assertThat(failed).isEmpty();
    }

    @Test
    void aCacheSmallerThanTheReachDoesNotLoadInCirclesAndStaysInItsBudget() throws Exception {
        var p = prefetcher(100, 5, 3 * ITEM, (i, progress) -> new byte[ITEM]);
        p.focus(20);
        await("the loaders stop", () -> p.loads() == 11 && p.inFlight().isEmpty());
        Thread.sleep(100);
        assertThat(p.loads()).as("each index tried once for this focus").isEqualTo(11);
        assertThat(p.cache().bytes()).isLessThanOrEqualTo(3 * ITEM);
    }

    @Test
    void aFailedLoadIsReportedOnceAndRetriedWhenScrolledToAgain() throws Exception {
        var p = prefetcher(10, 1, 10_000, (i, progress) -> {
            if (i == 5) {
                throw new java.io.IOException("the store failed (500)");
            }
            return new byte[ITEM];
        });
        p.focus(5);
        await("the neighbours are loaded", () -> p.cache().size() == 2);
        await("the failure is reported", () -> failed.size() == 1);
        p.focus(5);
        await("retried", () -> failed.size() == 2);
        p.close();
        p.focus(0);
        Thread.sleep(50);
        assertThat(p.cache().contains(0)).as("closed: no more loads").isFalse();
    }
}
