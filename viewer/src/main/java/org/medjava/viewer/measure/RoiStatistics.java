package org.medjava.viewer.measure;

/**
 * Statistics of the pixels whose centres lie in an ROI, in modality units: mean, sample standard deviation (n - 1;
 * 0 for one pixel), min, max, and the pixel count. Sums run on the integer stored values and are rescaled once.
 *
 * @param pixels pixels counted (0: the ROI covers no pixel centre, and the other values are NaN)
 */
public record RoiStatistics(long pixels, double mean, double sd, double min, double max) {

    public static RoiStatistics of(ModalityValues values, Measurement.Area roi) {
        int i0 = Math.max(0, (int) Math.floor(roi.x0() - 0.5));
        int j0 = Math.max(0, (int) Math.floor(roi.y0() - 0.5));
        int i1 = Math.min(values.width() - 1, (int) Math.ceil(roi.x1()));
        int j1 = Math.min(values.height() - 1, (int) Math.ceil(roi.y1()));
        long n = 0;
        long sum = 0;
        double sumSq = 0; // of deviations from the first value: no cancellation for large offsets
        long first = 0;
        int lo = Integer.MAX_VALUE;
        int hi = Integer.MIN_VALUE;
        for (int j = j0; j <= j1; j++) {
            for (int i = i0; i <= i1; i++) {
                if (!roi.containsPixel(i, j)) {
                    continue;
                }
                int v = values.stored(i, j);
                if (n == 0) {
                    first = v;
                }
                long d = v - first;
                sum += v;
                sumSq += (double) d * d;
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
                n++;
            }
        }
        if (n == 0) {
            return new RoiStatistics(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        double meanStored = (double) sum / n;
        double meanDev = meanStored - first;
        double variance = n > 1 ? Math.max(0, (sumSq - n * meanDev * meanDev) / (n - 1)) : 0;
        double slope = values.slope();
        double a = lo * slope + values.intercept();
        double b = hi * slope + values.intercept();
        return new RoiStatistics(n, meanStored * slope + values.intercept(), Math.abs(slope) * Math.sqrt(variance),
                Math.min(a, b), Math.max(a, b));
    }
}
