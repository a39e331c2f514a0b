package org.medjava.bench.ffm;

import java.util.List;
import org.medjava.bench.setup.Timing;

/**
 * What the JNI-vs-FFM benchmark runs: the frame sides the passing operations run at, the side of the whole blur,
 * JMH forks and iterations ({@code blurTiming} for the blur, whose calls are long), and whether this is the quick
 * run's smoke test.
 */
public record CallPlan(List<String> passSizes, String blurSize, int forks, Timing timing, Timing blurTiming,
                       boolean smokeTest) {

    /** The standard run: frames of 256², 1024² and 4096², the blur at 4096², two forks each; about 6 minutes. */
    public static CallPlan full() {
        return new CallPlan(List.of("256", "1024", "4096"), "4096", 2, new Timing(3, 0.5, 5, 0.5),
                new Timing(2, 1, 5, 1), false);
    }

    /** The quick run's smoke test: 256² frames, one fork, iterations of a few milliseconds. */
    public static CallPlan quick() {
        Timing t = new Timing(1, 0.05, 2, 0.05);
        return new CallPlan(List.of("256"), "256", 1, t, t, true);
    }
}
