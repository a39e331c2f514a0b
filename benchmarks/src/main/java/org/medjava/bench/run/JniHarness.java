package org.medjava.bench.run;

import java.util.Locale;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.setup.TestImages;
import org.medjava.bench.variant.FilterVariant;
import org.medjava.bench.variant.Impl;
import org.medjava.filter.Raster;

/**
 * Times a C port through JNI with exactly the loop of c-reference's {@code bench_harness} (warm up for a while,
 * then at least three runs and until the time is up; copy + filter per run), so the two can be compared case by
 * case, run back to back under the same machine conditions.
 */
final class JniHarness {
    private JniHarness() {
    }

    /** One line in the harness CSV format ({@code build,filter,width,height,impl,runs,mean_ms,min_ms}). */
    static String time(Impl impl, String filter, ImageSize size, double warmupSeconds, double seconds) {
        Raster src = TestImages.xorshift(size); // the pure-C harness's very image
        Raster dst = new Raster(size.width(), size.height());
        try (FilterVariant variant = impl.create(filter, src, dst)) {
            long start = System.nanoTime();
            do {
                variant.run();
            } while (System.nanoTime() - start < warmupSeconds * 1e9);
            start = System.nanoTime();
            int runs = 0;
            double total = 0;
            double best = Double.MAX_VALUE;
            while (runs < 3 || System.nanoTime() - start < seconds * 1e9) {
                long t0 = System.nanoTime();
                variant.run();
                double ms = (System.nanoTime() - t0) / 1e6;
                total += ms;
                best = Math.min(best, ms);
                runs++;
            }
            String[] parts = impl.id().split("-"); // c-optimized-O2
            return String.format(Locale.ROOT, "%s,%s,%d,%d,%s,%d,%.6f,%.6f", parts[2], filter, size.width(),
                    size.height(), parts[1], runs, total / runs, best);
        }
    }
}
