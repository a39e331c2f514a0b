package org.medjava.bench.report;

import java.awt.Color;
import org.medjava.bench.setup.JvmColumn;

/**
 * How a series looks, the same in every chart: Java solid (JDK 25 thinner, -Xint dotted), C dashed, OpenCV dotted,
 * the copy floor grey.
 */
final class SeriesStyle {
    private static final Color[] PALETTE = {
        new Color(0x9ecae1), new Color(0x1f77b4), new Color(0x08306b),   // Java JIT: straightforward, optimized, parallel
        new Color(0xfdae6b), new Color(0xe6550d), new Color(0x7f2704),   // JDK 25
        new Color(0xbcbddc), new Color(0x6a51a3),                         // -Xint
        new Color(0xa1d99b), new Color(0x31a354), new Color(0xd6616b), new Color(0xa50f15), // C O2, C native
        new Color(0x8c564b),                                               // OpenCV
        new Color(0x888888)                                                // copy
    };

    private SeriesStyle() {
    }

    static Color color(SeriesKey key) {
        int i = key.order();
        return PALETTE[Math.max(0, i) % PALETTE.length];
    }

    static Canvas.Stroke stroke(SeriesKey key) {
        if (key.isCopy() || key.impl().isC()) {
            return Canvas.Stroke.DASHED;
        }
        if (!key.impl().isJava() || key.jvm() == JvmColumn.XINT) {
            return Canvas.Stroke.DOTTED;
        }
        return Canvas.Stroke.SOLID;
    }

    static double width(SeriesKey key) {
        return key.jvm() == JvmColumn.JDK25 ? 1.6 : 2.2;
    }
}
