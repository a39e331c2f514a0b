package org.medjava.store.core.transcode;

import java.nio.file.Path;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomImage;

/** Peak signal-to-noise ratio, in dB, between two files' decoded pixels (stored values for grey, RGB for colour). */
final class Psnr {

    private Psnr() {
    }

    static double of(Path reference, Path other) throws Exception {
        DicomImage a = DicomCodec.read(reference, 0, Long.MAX_VALUE);
        DicomImage b = DicomCodec.read(other, 0, Long.MAX_VALUE);
        int[] x = a.isGrey() ? a.storedValues() : bytes(a.render().rgb());
        int[] y = b.isGrey() ? b.storedValues() : bytes(b.render().rgb());
        if (x.length != y.length) {
            throw new AssertionError(reference + " and " + other + " differ in size");
        }
        double sum = 0;
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        for (int i = 0; i < x.length; i++) {
            double d = x[i] - y[i];
            sum += d * d;
            min = Math.min(min, x[i]);
            max = Math.max(max, x[i]);
        }
        double peak = Math.max(1, max - min); // the source's range
        double mse = sum / x.length;
        return mse == 0 ? Double.POSITIVE_INFINITY : 10 * Math.log10(peak * peak / mse);
    }

    /** The largest difference between two files' decoded samples. */
    static int maxError(Path reference, Path other) throws Exception {
        int[] x = values(DicomCodec.read(reference, 0, Long.MAX_VALUE));
        int[] y = values(DicomCodec.read(other, 0, Long.MAX_VALUE));
        int max = 0;
        for (int i = 0; i < x.length; i++) {
            max = Math.max(max, Math.abs(x[i] - y[i]));
        }
        return max;
    }

    private static int[] values(DicomImage image) {
        return image.isGrey() ? image.storedValues() : bytes(image.render().rgb());
    }

    private static int[] bytes(byte[] b) {
        int[] out = new int[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = b[i] & 0xFF;
        }
        return out;
    }
}
