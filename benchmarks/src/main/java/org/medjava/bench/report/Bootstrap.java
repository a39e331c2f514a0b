package org.medjava.bench.report;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Medians with 95% confidence intervals by the percentile bootstrap (issue 35), and the verdict rule that uses them.
 * A cell's samples are its measured iterations pooled across its forks. A ratio's interval is bootstrapped on the
 * ratio itself: each resample draws both cells' samples anew (independently, they come from different JVMs) and
 * divides the two medians, so no error propagation formula is assumed. The generator is seeded from the cell's name,
 * so a report regenerated from the same raw results shows the same intervals.
 */
public final class Bootstrap {
    /** Resamples per interval: the 2.5% and 97.5% percentiles then move by well under 1% between seeds. */
    static final int RESAMPLES = 2000;

    private Bootstrap() {
    }

    /** A point estimate (the median, or the ratio of two medians) and its 95% interval; NaN when there are no data. */
    public record Interval(double estimate, double lo, double hi) {
        static final Interval NONE = new Interval(Double.NaN, Double.NaN, Double.NaN);

        public boolean isEmpty() {
            return Double.isNaN(estimate);
        }

        /** The interval divided by a constant (a target's limit, or unit conversions). */
        Interval over(double d) {
            return new Interval(estimate / d, lo / d, hi / d);
        }
    }

    /** ✓ only where the interval lies wholly on the right side of the target, ✗ wholly on the wrong side, else ≈. */
    public enum Verdict {
        MET("✓"), MISSED("✗"), UNDECIDED("≈");

        private final String mark;

        Verdict(String mark) {
            this.mark = mark;
        }

        public String mark() {
            return mark;
        }
    }

    /** The median of {@code samples} with its 95% bootstrap interval. */
    public static Interval median(double[] samples, String seedName) {
        if (samples.length == 0) {
            return Interval.NONE;
        }
        SplittableRandom random = new SplittableRandom(seed(seedName));
        double[] medians = new double[RESAMPLES];
        double[] scratch = new double[samples.length];
        for (int b = 0; b < RESAMPLES; b++) {
            medians[b] = median(resample(samples, scratch, random));
        }
        return interval(median(samples.clone()), medians);
    }

    /** {@code median(a) ÷ median(b)} with its 95% bootstrap interval (both cells resampled in every round). */
    public static Interval ratio(double[] a, double[] b, String seedName) {
        if (a.length == 0 || b.length == 0) {
            return Interval.NONE;
        }
        SplittableRandom random = new SplittableRandom(seed(seedName));
        double[] ratios = new double[RESAMPLES];
        double[] sa = new double[a.length];
        double[] sb = new double[b.length];
        for (int i = 0; i < RESAMPLES; i++) {
            ratios[i] = median(resample(a, sa, random)) / median(resample(b, sb, random));
        }
        return interval(median(a.clone()) / median(b.clone()), ratios);
    }

    /** Target "≤ limit" (Java's time over the other's). */
    public static Verdict atMost(Interval ratio, double limit) {
        if (ratio.hi() < limit) {
            return Verdict.MET;
        }
        return ratio.lo() > limit ? Verdict.MISSED : Verdict.UNDECIDED;
    }

    /** Target "≥ limit" (a speed-up). */
    public static Verdict atLeast(Interval ratio, double limit) {
        if (ratio.lo() > limit) {
            return Verdict.MET;
        }
        return ratio.hi() < limit ? Verdict.MISSED : Verdict.UNDECIDED;
    }

    /** Sorts {@code values} in place and returns their median. */
    static double median(double[] values) {
        Arrays.sort(values);
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    private static double[] resample(double[] from, double[] into, SplittableRandom random) {
        for (int i = 0; i < into.length; i++) {
            into[i] = from[random.nextInt(from.length)];
        }
        return into;
    }

    private static Interval interval(double estimate, double[] replicates) {
        Arrays.sort(replicates);
        return new Interval(estimate, percentile(replicates, 0.025), percentile(replicates, 0.975));
    }

    /** Linear interpolation between the closest ranks of sorted values. */
    static double percentile(double[] sorted, double p) {
        double rank = p * (sorted.length - 1);
        int lo = (int) Math.floor(rank);
        int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (rank - lo) * (sorted[hi] - sorted[lo]);
    }

    /** String.hashCode is specified, so the seed is the same on every JVM. */
    static long seed(String name) {
        return 0x5EEDL * 31 + name.hashCode();
    }
}
