package org.medjava.bench.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Records the machine's load around each JMH cell and, in the standard run, keeps a cell from being measured while
 * other processes use the cores (issue 35). The rule looks at the CPU time of <em>other</em> processes: the load
 * average cannot tell the benchmark's own fork from a neighbour (a run that is busy itself holds it near 1), while
 * {@code /proc/stat} minus this JVM's own time (its reaped forks included) can.
 * <ul>
 *   <li>At the cell's start a {@value #PROBE_SECONDS} s probe, while nothing of ours runs: if others kept more than
 *   {@value #THRESHOLD} of each core busy, the cell does not start; the run waits {@value #BACKOFF_SECONDS} s and
 *   tries again.</li>
 *   <li>During the cell: if others used more than {@value #THRESHOLD} per core over its whole time, its result is
 *   thrown away and, after the same wait, it runs again.</li>
 *   <li>At most {@value #ATTEMPTS} attempts: the last one runs and is kept whatever the load, marked "loaded" when it
 *   was over the threshold.</li>
 * </ul>
 * The 1-minute load average before and after the kept attempt is recorded too, as the report shows it. Without
 * retries (quick and full runs) only the readings are taken: no probe, no waiting.
 */
final class LoadGuard {
    /** Cores' worth of other processes' CPU use, per core, above which a cell is not measured. */
    static final double THRESHOLD = 0.5;
    static final int ATTEMPTS = 3;
    static final double PROBE_SECONDS = 1;
    static final double BACKOFF_SECONDS = 30;
    /** The rule in a line, for the report's environment block. */
    static final String RULE = "a cell is measured again (after " + (int) BACKOFF_SECONDS + " s, at most " + ATTEMPTS
            + " attempts, then kept as \"loaded\") when other processes used > " + THRESHOLD
            + " of each core at its start (" + (int) PROBE_SECONDS + " s probe) or during it (/proc/stat)";

    /** One reading: the 1-minute load average, the machine's busy and total CPU ticks, this JVM's own ticks. */
    record Reading(double load1, long busyTicks, long totalTicks, long ownTicks) {
    }

    interface LoadSource {
        Reading read() throws IOException;
    }

    interface Pause {
        void pause(double seconds) throws InterruptedException;
    }

    interface Cell<T> {
        T run() throws Exception;
    }

    /**
     * What was kept: the result, the attempts it took, the load average before and after it, others' use per core at
     * its start (NaN without a probe) and during it, and whether it was over the threshold all the same.
     */
    record Outcome<T>(T result, int attempts, double load1Before, double load1After, double othersAtStart,
                      double othersDuring, boolean loaded) {
    }

    private final LoadSource source;
    private final Pause pause;
    private final boolean retry;

    LoadGuard(LoadSource source, Pause pause, boolean retry) {
        this.source = source;
        this.pause = pause;
        this.retry = retry;
    }

    /** Whether a cell measured on a busy machine is measured again (the standard run). */
    boolean retries() {
        return retry;
    }

    /** The machine's {@code /proc} and real sleeps. */
    static LoadGuard system(boolean retry) {
        return new LoadGuard(LoadGuard::procReading, seconds -> Thread.sleep(Math.round(seconds * 1000)), retry);
    }

    <T> Outcome<T> run(Cell<T> cell) throws Exception {
        for (int attempt = 1; ; attempt++) {
            boolean last = !retry || attempt >= ATTEMPTS;
            double atStart = Double.NaN;
            Reading before = source.read();
            if (retry) {
                pause.pause(PROBE_SECONDS);
                Reading probed = source.read();
                atStart = others(before, probed);
                before = probed;
                if (atStart > THRESHOLD && !last) {
                    pause.pause(BACKOFF_SECONDS);
                    continue;
                }
            }
            T result = cell.run();
            Reading after = source.read();
            double during = others(before, after);
            boolean over = atStart > THRESHOLD || during > THRESHOLD;
            if (over && !last) {
                pause.pause(BACKOFF_SECONDS);
                continue;
            }
            return new Outcome<>(result, attempt, before.load1(), after.load1(), atStart, during, retry && over);
        }
    }

    /** Other processes' CPU use between two readings, as a fraction of all cores (0 = idle, 1 = every core busy). */
    static double others(Reading a, Reading b) {
        long total = b.totalTicks() - a.totalTicks();
        if (total <= 0) {
            return 0;
        }
        long foreign = (b.busyTicks() - a.busyTicks()) - (b.ownTicks() - a.ownTicks());
        return Math.max(0, (double) foreign / total);
    }

    static Reading procReading() throws IOException {
        double load1 = Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+")[0]);
        String cpu = Files.readAllLines(Path.of("/proc/stat")).get(0); // cpu user nice system idle iowait irq ...
        String[] f = cpu.trim().split("\\s+");
        long busy = 0;
        long total = 0;
        for (int i = 1; i < f.length && i <= 8; i++) { // guest time is already counted in user
            long v = Long.parseLong(f[i]);
            total += v;
            if (i != 4 && i != 5) { // idle, iowait
                busy += v;
            }
        }
        String self = Files.readString(Path.of("/proc/self/stat"));
        String[] s = self.substring(self.lastIndexOf(')') + 2).split("\\s+");
        // fields 14-17 of proc(5): utime, stime, cutime, cstime (reaped children: the JMH forks)
        long own = Long.parseLong(s[11]) + Long.parseLong(s[12]) + Long.parseLong(s[13]) + Long.parseLong(s[14]);
        return new Reading(load1, busy, total, own);
    }
}
