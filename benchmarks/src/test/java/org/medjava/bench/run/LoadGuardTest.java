package org.medjava.bench.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.medjava.bench.run.LoadGuard.Reading;

/** The retry rule with a scripted load source and a pause that only counts: no clock, no sleeping. */
class LoadGuardTest {
    private final List<Double> pauses = new ArrayList<>();
    private int runs;

    /** Readings 100 ticks apart on the whole machine; {@code others} of them another process's, the rest ours. */
    private static final class Script {
        private final Deque<Reading> readings = new ArrayDeque<>();
        private long busy;
        private long total;
        private long own;

        Script() {
            add(0, 0);
        }

        Script then(long othersTicks, long ownTicks) {
            add(othersTicks, ownTicks);
            return this;
        }

        private void add(long othersTicks, long ownTicks) {
            busy += othersTicks + ownTicks;
            own += ownTicks;
            total += 100;
            readings.add(new Reading(0.1 * readings.size(), busy, total, own));
        }
    }

    private LoadGuard guard(Script script, boolean retry) {
        return new LoadGuard(() -> script.readings.remove(), pauses::add, retry);
    }

    private String cell() {
        runs++;
        return "result " + runs;
    }

    @Test
    void quietMachineOneAttempt() throws Exception {
        // probe: others 10 of 100 ticks; the cell: ours 90, others 5
        Script s = new Script().then(10, 0).then(5, 90);
        LoadGuard.Outcome<String> o = guard(s, true).run(this::cell);
        assertThat(o.result()).isEqualTo("result 1");
        assertThat(o.attempts()).isEqualTo(1);
        assertThat(o.othersAtStart()).isEqualTo(0.10);
        assertThat(o.othersDuring()).isEqualTo(0.05);
        assertThat(o.loaded()).isFalse();
        assertThat(o.load1Before()).isEqualTo(0.1);
        assertThat(o.load1After()).isEqualTo(0.2);
        assertThat(pauses).containsExactly(LoadGuard.PROBE_SECONDS);
    }

    @Test
    void ourOwnWorkIsNotLoad() throws Exception {
        Script s = new Script().then(0, 0).then(0, 100); // the fork kept every core busy: that is the measurement
        assertThat(guard(s, true).run(this::cell).loaded()).isFalse();
    }

    @Test
    void busyAtStartTheCellWaitsAndIsNotRun() throws Exception {
        // probe 1: others 80% → back off; probe 2: 10% → run, quiet
        Script s = new Script().then(80, 0).then(0, 0).then(10, 0).then(0, 90);
        LoadGuard.Outcome<String> o = guard(s, true).run(this::cell);
        assertThat(runs).isEqualTo(1);
        assertThat(o.attempts()).isEqualTo(2);
        assertThat(o.loaded()).isFalse();
        assertThat(pauses).containsExactly(LoadGuard.PROBE_SECONDS, LoadGuard.BACKOFF_SECONDS,
                LoadGuard.PROBE_SECONDS);
    }

    @Test
    void busyDuringTheCellItsResultIsDiscardedAndItRunsAgain() throws Exception {
        Script s = new Script().then(0, 0).then(60, 40).then(0, 0).then(0, 0).then(0, 100);
        LoadGuard.Outcome<String> o = guard(s, true).run(this::cell);
        assertThat(o.result()).isEqualTo("result 2");
        assertThat(o.attempts()).isEqualTo(2);
        assertThat(o.loaded()).isFalse();
    }

    @Test
    void alwaysBusyTheLastAttemptIsKeptAndMarkedLoaded() throws Exception {
        Script s = new Script();
        for (int i = 0; i < LoadGuard.ATTEMPTS; i++) {
            if (i > 0) {
                s.then(0, 0); // the next attempt's first reading, after the wait
            }
            s.then(90, 0); // its probe: busy
        }
        s.then(70, 30);
        LoadGuard.Outcome<String> o = guard(s, true).run(this::cell);
        assertThat(runs).isEqualTo(1); // only the last attempt ran
        assertThat(o.attempts()).isEqualTo(LoadGuard.ATTEMPTS);
        assertThat(o.loaded()).isTrue();
        assertThat(o.othersDuring()).isEqualTo(0.7);
    }

    @Test
    void withoutRetriesOnlyRecords() throws Exception {
        Script s = new Script().then(95, 5);
        LoadGuard.Outcome<String> o = guard(s, false).run(this::cell);
        assertThat(o.attempts()).isEqualTo(1);
        assertThat(o.othersAtStart()).isNaN();
        assertThat(o.othersDuring()).isEqualTo(0.95);
        assertThat(o.loaded()).isFalse(); // nothing was promised: the load column says it
        assertThat(pauses).isEmpty();
    }

    @Test
    void readsThisMachine() throws Exception {
        Reading r = LoadGuard.procReading();
        assertThat(r.totalTicks()).isGreaterThan(0);
        assertThat(r.busyTicks()).isBetween(0L, r.totalTicks());
        assertThat(r.ownTicks()).isGreaterThan(0);
    }
}
