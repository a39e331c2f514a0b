package org.medjava.viewer.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.medjava.codec.dicom.Window;

/**
 * The window presets a modality offers after the file's own windows and the full range. CT has fixed Hounsfield
 * windows; the other modalities have no fixed units (a radiograph's or an MR's values depend on the device and the
 * acquisition), so their presets are percentiles of the image's own values; NM and PET count images are windowed
 * from zero to a share of the maximum, as nuclear medicine displays do.
 */
public final class ModalityPresets {
    private ModalityPresets() {
    }

    /** The modalities read as projection radiographs. */
    private static final List<String> RADIOGRAPHY = List.of("CR", "DX", "MG", "RF", "XA", "IO", "PX", "RG", "DF");

    /**
     * The presets for {@code modality} (a DICOM Modality code; blank or unknown: the generic percentile presets) over
     * the image's value distribution {@code values}.
     */
    public static List<WindowLevel.Preset> forModality(String modality, Distribution values) {
        String m = modality == null ? "" : modality.trim().toUpperCase(Locale.ROOT);
        if (m.equals("CT")) {
            return WindowLevel.CT_PRESETS;
        }
        List<WindowLevel.Preset> out = new ArrayList<>();
        if (RADIOGRAPHY.contains(m)) {
            out.add(percentiles("Radiograph", values, 1, 99));
            out.add(percentiles("Radiograph contrast", values, 5, 95));
            out.add(percentiles("Radiograph dense (bone, implants)", values, 50, 99.5));
            out.add(percentiles("Radiograph soft (skin line)", values, 0.5, 60));
        } else if (m.equals("MR")) {
            out.add(percentiles("MR", values, 1, 99));
            out.add(percentiles("MR contrast", values, 5, 95));
            out.add(percentiles("MR bright (fluid, fat)", values, 40, 99.8));
        } else if (m.equals("US")) {
            if (values.min() >= 0 && values.max() <= 255) {
                out.add(new WindowLevel.Preset("US as acquired (0–255)", Window.ofRange(0, 255)));
            }
            out.add(percentiles("US", values, 1, 99.5));
            out.add(percentiles("US contrast", values, 10, 90));
        } else if (m.equals("NM") || m.equals("PT")) {
            String name = m.equals("NM") ? "NM" : "PET";
            for (int share : new int[] {100, 75, 50, 25}) {
                double top = Math.max(0, values.max()) * share / 100.0;
                out.add(new WindowLevel.Preset(name + " 0–" + share + " % of max", Window.ofRange(
                        Math.min(0, values.min()), Math.max(top, Math.min(0, values.min())))));
            }
        } else {
            out.add(percentiles("1–99 %", values, 1, 99));
            out.add(percentiles("5–95 %", values, 5, 95));
        }
        return List.copyOf(out);
    }

    /** A preset from the {@code lo}th to the {@code hi}th percentile, named with them. */
    static WindowLevel.Preset percentiles(String name, Distribution values, double lo, double hi) {
        return new WindowLevel.Preset(name + " " + pct(lo) + "–" + pct(hi) + " % percentile",
                Window.ofRange(values.percentile(lo), values.percentile(hi)));
    }

    private static String pct(double p) {
        return p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p);
    }

    /** The sorted modality values of an image (a sample of them for very large images). Immutable. */
    public static final class Distribution {
        /** At most this many values are kept: percentiles of a 16-M-pixel frame do not need all of them. */
        static final int MAX_SAMPLES = 1 << 20;
        private final double[] sorted;

        private Distribution(double[] sorted) {
            this.sorted = sorted;
        }

        /** From stored values and their rescale; a regular sample when there are more than {@link #MAX_SAMPLES}. */
        public static Distribution of(int[] stored, double slope, double intercept) {
            return of(stored.length, i -> stored[i], slope, intercept);
        }

        public static Distribution of(int count, java.util.function.IntUnaryOperator stored, double slope,
                                      double intercept) {
            if (count == 0) {
                throw new IllegalArgumentException("no values");
            }
            int step = Math.max(1, (int) Math.ceil((double) count / MAX_SAMPLES));
            double[] v = new double[(count + step - 1) / step];
            for (int i = 0, k = 0; i < count; i += step, k++) {
                v[k] = stored.applyAsInt(i) * slope + intercept;
            }
            Arrays.sort(v);
            return new Distribution(v);
        }

        /** The {@code p}th percentile (0..100), nearest rank. */
        public double percentile(double p) {
            int rank = (int) Math.ceil(p / 100.0 * sorted.length);
            return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
        }

        public double min() {
            return sorted[0];
        }

        public double max() {
            return sorted[sorted.length - 1];
        }
    }
}
