package org.medjava.bench.run;

import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.setup.JvmColumn;

/** Rough time per operation, only for the progress estimate (measured once on a 2-core EPYC, then rounded). */
final class CostModel {
    private CostModel() {
    }

    static double opSeconds(String filter, String impl, JvmColumn jvm, ImageSize size) {
        double nsPerPixel;
        if (filter == null) {
            nsPerPixel = 0.4; // the copy
        } else if (impl.contains("straightforward")) {
            switch (filter) {
                case "despeckle": nsPerPixel = 300; break;
                case "sharpen": nsPerPixel = 70; break;
                case "oil-paint": nsPerPixel = 90; break;
                default: nsPerPixel = 12;
            }
        } else {
            switch (filter) {
                case "sharpen": nsPerPixel = 25; break;
                case "oil-paint": nsPerPixel = 9; break;
                case "spread": nsPerPixel = 10; break;
                default: nsPerPixel = 5;
            }
        }
        if (jvm == JvmColumn.XINT) {
            nsPerPixel *= 30;
        }
        return nsPerPixel * size.pixels() * 1e-9;
    }

    /** Planned seconds of a whole group. */
    static double groupSeconds(JmhGroup g) {
        double sum = 0;
        for (String size : g.sizes()) {
            ImageSize s = ImageSize.parse(size);
            if (g.copyBaseline()) {
                sum += g.timing().estimateSeconds(opSeconds(null, "", g.jvm(), s));
                continue;
            }
            for (String filter : g.filters()) {
                for (String impl : g.impls()) {
                    sum += g.timing().estimateSeconds(opSeconds(filter, impl, g.jvm(), s));
                }
            }
        }
        return sum;
    }
}
