package org.medjava.plugin.sharpen;

import org.medjava.filter.Cancellation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/** Sharpen (spec 2.2) written to read like the spec: every step, in the spec's order, per interior pixel. */
final class SharpenStraightforward {
    private SharpenStraightforward() {
    }

    static void apply(Raster src, Raster dst, Region region, int p) {
        int sx = region.x();
        int sy = region.y();
        int sw = region.width();
        int sh = region.height();
        if (sw < 3 || sh < 3) {
            return; // nothing changes
        }
        double f = p / 100.0;
        double g = 1.0 - f;
        double[] hs = new double[2];
        int[] rgb = new int[3];
        for (int y = sy + 1; y <= sy + sh - 2; y++) {
            Cancellation.check();
            for (int x = sx + 1; x <= sx + sw - 2; x++) {
                // S: the nine V values summed strictly left to right in row-major order
                double s = 0.0;
                boolean first = true;
                for (int dy = -1; dy <= 1; dy++) {
                    for (int dx = -1; dx <= 1; dx++) {
                        double v = value(src, x + dx, y + dy);
                        s = first ? v : s + v;
                        first = false;
                    }
                }
                double vc = value(src, x, y);
                double v = (vc - (f * s) / 9) / g;
                if (v < 0.0) {
                    v = 0.0;
                }
                if (v > 1.0) {
                    v = 1.0;
                }
                int packed = src.rgbAt(x, y);
                rgbToHs(packed >>> 16 & 0xFF, packed >>> 8 & 0xFF, packed & 0xFF, hs);
                hsvToRgb(hs[0], hs[1], v, rgb);
                dst.setRgb(x, y, rgb[0] << 16 | rgb[1] << 8 | rgb[2]);
            }
        }
    }

    /** {@code V = max(R,G,B) / 255.0}. */
    private static double value(Raster src, int x, int y) {
        int packed = src.rgbAt(x, y);
        int r = packed >>> 16 & 0xFF;
        int g = packed >>> 8 & 0xFF;
        int b = packed & 0xFF;
        return Math.max(r, Math.max(g, b)) / 255.0;
    }

    /** xv's rgb→hsv, hue and saturation only: {@code hs[0] = H} (−1 for no hue), {@code hs[1] = Sat}. */
    static void rgbToHs(int r, int g, int b, double[] hs) {
        double rd = r / 255.0;
        double gd = g / 255.0;
        double bd = b / 255.0;
        double mx = Math.max(rd, Math.max(gd, bd));
        double mn = Math.min(rd, Math.min(gd, bd));
        double del = mx - mn;
        double sat = mx != 0.0 ? del / mx : 0.0;
        double h;
        if (sat == 0.0) {
            h = -1.0;
        } else {
            double rc = (mx - rd) / del;
            double gc = (mx - gd) / del;
            double bc = (mx - bd) / del;
            if (rd == mx) {
                h = bc - gc;
            } else if (gd == mx) {
                h = 2 + rc - bc;
            } else {
                h = 4 + gc - rc;
            }
            h = h * 60;
            if (h < 0) {
                h += 360;
            }
        }
        hs[0] = h;
        hs[1] = sat;
    }

    /** xv's hsv→rgb, each channel {@code floor(c * 255.0 + 0.5)} clamped to 0..255. */
    static void hsvToRgb(double h, double sat, double v, int[] rgb) {
        double r;
        double g;
        double b;
        if (h == -1.0 || sat == 0.0) {
            r = v;
            g = v;
            b = v;
        } else {
            if (h == 360.0) {
                h = 0.0;
            }
            h = h / 60;
            int j = (int) Math.floor(h);
            if (j < 0) {
                j = 0;
            }
            double fr = h - j;
            double pp = v * (1 - sat);
            double qq = v * (1 - sat * fr);
            double tt = v * (1 - sat * (1 - fr));
            switch (j) {
                case 1:
                    r = qq; g = v; b = pp;
                    break;
                case 2:
                    r = pp; g = v; b = tt;
                    break;
                case 3:
                    r = pp; g = qq; b = v;
                    break;
                case 4:
                    r = tt; g = pp; b = v;
                    break;
                case 5:
                    r = v; g = pp; b = qq;
                    break;
                default: // 0 and any other value
                    r = v; g = tt; b = pp;
                    break;
            }
        }
        rgb[0] = toByte(r);
        rgb[1] = toByte(g);
        rgb[2] = toByte(b);
    }

    private static int toByte(double c) {
        double d = Math.floor(c * 255.0 + 0.5);
        return d < 0 ? 0 : d > 255 ? 255 : (int) d;
    }
}
