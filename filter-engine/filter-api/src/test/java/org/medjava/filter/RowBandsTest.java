package org.medjava.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class RowBandsTest {

    @RepeatedTest(20)
    void everyRowIsWrittenExactlyOnce() {
        int from = 7;
        int to = 1031;
        AtomicIntegerArray hits = new AtomicIntegerArray(to);
        RowBands.run(from, to, 3, (a, b) -> {
            assertThat(a).isLessThan(b);
            for (int r = a; r < b; r++) {
                hits.incrementAndGet(r);
            }
        });
        for (int r = 0; r < to; r++) {
            assertThat(hits.get(r)).as("row %d", r).isEqualTo(r < from ? 0 : 1);
        }
    }

    @Test
    void fewRowsRunAsOneBandOnTheCaller() {
        Thread caller = Thread.currentThread();
        AtomicInteger calls = new AtomicInteger();
        RowBands.run(0, 10, 8, (a, b) -> {
            assertThat(Thread.currentThread()).isSameAs(caller);
            assertThat(a).isZero();
            assertThat(b).isEqualTo(10);
            calls.incrementAndGet();
        });
        assertThat(calls).hasValue(1);
    }

    @Test
    void aFailingBandReachesTheCallerAfterTheOthersStopped() {
        AtomicInteger running = new AtomicInteger();
        assertThatThrownBy(() -> RowBands.run(0, 4000, 1, (a, b) -> {
            running.incrementAndGet();
            try {
                if (a >= 2000) {
                    throw new IllegalStateException("band " + a);
                }
            } finally {
                running.decrementAndGet();
            }
        })).isInstanceOf(IllegalStateException.class).hasMessageStartingWith("band ");
        assertThat(running).hasValue(0);
    }
}
