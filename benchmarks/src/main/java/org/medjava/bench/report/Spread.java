package org.medjava.bench.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** The median of a set of measurements with their range (min–max) and count. */
record Spread(double median, double min, double max, int n) {

    static Spread of(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values");
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return new Spread(Throughput.median(sorted), sorted.get(0), sorted.get(sorted.size() - 1), sorted.size());
    }

    /** "12.3 [11.9–14.0]" with three significant digits. */
    String text() {
        return num(median) + " [" + num(min) + "–" + num(max) + "]";
    }

    static String num(double v) {
        if (v >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (v >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (v >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (v >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }

    static String ratio(double r) {
        return String.format(Locale.ROOT, r >= 10 ? "%.0f×" : "%.2f×", r);
    }

    /**
     * A warning when the 1-minute load average at the start or the end of a step ("a b c") exceeded the cores:
     * blocking hand-overs then wait for the scheduler, and the figures measure its queue as much as the code.
     */
    static String loadCaveat(String loadStart, String loadEnd, String cores) {
        try {
            double worst = Math.max(Double.parseDouble(loadStart.split(" ")[0]), Double.parseDouble(loadEnd.split(" ")[0]));
            int n = Integer.parseInt(cores);
            if (worst > n) {
                return " Caution: the load average (" + num(worst) + ") exceeded the " + n + " cores during this step, "
                        + "so every blocking wake-up may wait for a time slice: the figures measure the scheduler's "
                        + "queue as much as the mechanism, and ratios between runs minutes apart are less certain.";
            }
        } catch (RuntimeException e) {
            // load unknown: no caveat
        }
        return "";
    }
}
