package org.medjava.store.core.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.ingest.WriteBarrier;

/** The ingest door's pause: a hold waits for the changes in flight, new changes wait for the hold, both bounded. */
class WriteBarrierTest {

    @Test
    void changesArrivingDuringAHoldWaitUntilItIsClosed() throws Exception {
        WriteBarrier barrier = new WriteBarrier(Duration.ofSeconds(30));
        CompletableFuture<Void> change;
        try (WriteBarrier.Hold hold = barrier.hold()) {
            change = CompletableFuture.runAsync(() -> barrier.pass().close());
            assertThat(change).as("still held").isNotDone();
            Thread.sleep(200);
            assertThat(change).as("still held").isNotDone();
        }
        change.get(10, TimeUnit.SECONDS);
    }

    @Test
    void aHoldWaitsForTheChangeInFlight() throws Exception {
        WriteBarrier barrier = new WriteBarrier(Duration.ofSeconds(30));
        CountDownLatch held = new CountDownLatch(1);
        WriteBarrier.Pass inFlight = barrier.pass();
        CompletableFuture<Void> backup = CompletableFuture.runAsync(() -> {
            try (WriteBarrier.Hold hold = barrier.hold()) {
                held.countDown();
            }
        });
        assertThat(held.await(200, TimeUnit.MILLISECONDS)).isFalse();
        inFlight.close();
        backup.get(10, TimeUnit.SECONDS);
    }

    @Test
    void nothingWaitsForever() throws Exception {
        WriteBarrier barrier = new WriteBarrier(Duration.ofMillis(100));
        try (WriteBarrier.Hold hold = barrier.hold()) {
            StoreException refused = CompletableFuture.supplyAsync(() -> {
                try {
                    barrier.pass().close();
                    return null;
                } catch (StoreException e) {
                    return e;
                }
            }).get(10, TimeUnit.SECONDS);
            assertThat(refused).isNotNull();
            assertThat(refused.kind()).isEqualTo(StoreException.Kind.UNAVAILABLE);
            assertThat(refused.getMessage()).contains("nothing was changed");
        }
        WriteBarrier.Pass stuck = barrier.pass();
        try {
            StoreException noSnapshot = CompletableFuture.supplyAsync(() -> {
                try {
                    barrier.hold().close();
                    return null;
                } catch (StoreException e) {
                    return e;
                }
            }).get(10, TimeUnit.SECONDS);
            assertThat(noSnapshot).isNotNull();
            assertThat(noSnapshot.getMessage()).contains("no snapshot was taken");
        } finally {
            stuck.close();
        }
    }
}
