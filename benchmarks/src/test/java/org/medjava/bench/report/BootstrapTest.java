package org.medjava.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.medjava.bench.report.Bootstrap.Interval;
import org.medjava.bench.report.Bootstrap.Verdict;

/** The bootstrap intervals on samples whose answer is known, and the ✓/✗/≈ rule. */
class BootstrapTest {
    @Test
    void identicalSamplesGiveAPointInterval() {
        Interval i = Bootstrap.median(new double[] {2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5}, "c");
        assertThat(i).isEqualTo(new Interval(2.5, 2.5, 2.5));
    }

    @Test
    void medianIntervalCoversTheMedianAndStaysWithinTheSamples() {
        double[] samples = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29};
        Interval i = Bootstrap.median(samples, "blur 1024 c-vectorized");
        assertThat(i.estimate()).isEqualTo(19.5);
        // the order-statistic interval for n = 20 is about [x(6), x(15)] = [15, 24]: the bootstrap lands close
        assertThat(i.lo()).isBetween(14.0, 17.0);
        assertThat(i.hi()).isBetween(22.0, 25.0);
    }

    @Test
    void anOutlierMovesTheMedianIntervalLittle() {
        double[] quiet = {5.0, 5.1, 4.9, 5.0, 5.2, 4.8, 5.0, 5.1, 4.9, 5.0, 5.0, 5.1};
        double[] disturbed = quiet.clone();
        disturbed[3] = 50; // one iteration hit by another process
        Interval a = Bootstrap.median(quiet, "x");
        Interval b = Bootstrap.median(disturbed, "x");
        assertThat(b.estimate()).isEqualTo(a.estimate());
        assertThat(b.hi()).isLessThan(5.2);
    }

    @Test
    void sameSeedNameSameIntervalsOtherNameOtherResamples() {
        double[] s = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
        assertThat(Bootstrap.median(s, "a")).isEqualTo(Bootstrap.median(s.clone(), "a"));
        assertThat(Bootstrap.ratio(s, s, "r")).isEqualTo(Bootstrap.ratio(s, s, "r"));
        assertThat(Bootstrap.seed("a")).isNotEqualTo(Bootstrap.seed("b"));
    }

    @Test
    void ratioOfSeparatedCellsExcludesOne() {
        double[] java = {8.0, 8.1, 7.9, 8.0, 8.2, 7.8, 8.0, 8.1, 7.9, 8.0};
        double[] c = {10.0, 10.1, 9.9, 10.0, 10.2, 9.8, 10.0, 10.1, 9.9, 10.0};
        Interval r = Bootstrap.ratio(java, c, "emboss");
        assertThat(r.estimate()).isCloseTo(0.8, within(1e-12));
        assertThat(r.lo()).isLessThanOrEqualTo(0.8).isGreaterThan(0.77);
        assertThat(r.hi()).isGreaterThanOrEqualTo(0.8).isLessThan(0.83);
        assertThat(Bootstrap.atMost(r, 1.0)).isEqualTo(Verdict.MET);
    }

    @Test
    void verdictOnlyWhereTheIntervalExcludesTheTarget() {
        assertThat(Bootstrap.atMost(new Interval(0.9, 0.85, 0.95), 1.0)).isEqualTo(Verdict.MET);
        assertThat(Bootstrap.atMost(new Interval(1.2, 1.1, 1.3), 1.0)).isEqualTo(Verdict.MISSED);
        assertThat(Bootstrap.atMost(new Interval(0.97, 0.9, 1.05), 1.0)).isEqualTo(Verdict.UNDECIDED);
        assertThat(Bootstrap.atMost(new Interval(1.03, 0.95, 1.1), 1.0)).isEqualTo(Verdict.UNDECIDED);
        assertThat(Bootstrap.atLeast(new Interval(1.9, 1.8, 2.0), 1.7)).isEqualTo(Verdict.MET);
        assertThat(Bootstrap.atLeast(new Interval(1.2, 1.1, 1.3), 1.7)).isEqualTo(Verdict.MISSED);
        assertThat(Bootstrap.atLeast(new Interval(1.7, 1.6, 1.8), 1.7)).isEqualTo(Verdict.UNDECIDED);
        assertThat(Verdict.UNDECIDED.mark()).isEqualTo("≈");
    }

    @Test
    void noSamplesNoInterval() {
        assertThat(Bootstrap.median(new double[0], "x").isEmpty()).isTrue();
        assertThat(Bootstrap.ratio(new double[] {1}, new double[0], "x").isEmpty()).isTrue();
    }

    @Test
    void percentileInterpolates() {
        assertThat(Bootstrap.percentile(new double[] {0, 10}, 0.25)).isEqualTo(2.5);
        assertThat(Bootstrap.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
    }
}
