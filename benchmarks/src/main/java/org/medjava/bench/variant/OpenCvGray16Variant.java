package org.medjava.bench.variant;

import java.util.Map;
import org.medjava.bench.setup.GrayFormat;
import org.medjava.filter.GrayRaster16;
import org.opencv.core.Core;
import org.opencv.core.CvType;
import org.opencv.core.Mat;
import org.opencv.core.Point;
import org.opencv.core.Scalar;
import org.opencv.core.Size;
import org.opencv.imgproc.Imgproc;

/**
 * OpenCV on the 16-bit grey image, one channel of {@code CV_16U} (unsigned formats) or {@code CV_16S} (signed),
 * single-threaded, at the filters' default parameters. Like every variant it first copies the source into the
 * destination. Not bit-exact: OpenCV extrapolates borders (reflect-101) where xv clips windows or leaves the frame,
 * and rounds to nearest where xv floors or truncates.
 *
 * <p>On grey data several xv filters are OpenCV operations outright (the RGB-only steps, HSV and MONO, disappear:
 * docs/xv-filters-16bit.md): the interior then agrees with xv within one grey level ({@link #EQUIVALENT}, checked by
 * {@code VariantsTest}). Edge Detect is only comparable. Oil Painting and Spread have no OpenCV counterpart.
 */
final class OpenCvGray16Variant implements FilterVariant {

    private interface Counterpart {
        void apply(Mat src, Mat dst, Scratch scratch);
    }

    /** Scratch matrices and kernels reused across calls. */
    private static final class Scratch {
        final GrayFormat format;
        final Mat a = new Mat();
        final Mat b = new Mat();
        /** xv's Sharpen on grey at p = 75 as a 3×3 kernel (see {@link #sharpenKernel}). */
        final Mat sharpen = sharpenKernel(75);
        /** xv's Emboss kernel divided by 8. */
        final Mat emboss = new Mat(3, 3, CvType.CV_32F);
        final Mat prewittX = new Mat(3, 3, CvType.CV_32F);
        final Mat prewittY = new Mat(3, 3, CvType.CV_32F);

        Scratch(GrayFormat format) {
            this.format = format;
            emboss.put(0, 0, -2 / 8.0, -1 / 8.0, 0, -1 / 8.0, 0, 1 / 8.0, 0, 1 / 8.0, 2 / 8.0);
            prewittX.put(0, 0, -1, 0, 1, -1, 0, 1, -1, 0, 1);
            prewittY.put(0, 0, -1, -1, -1, 0, 0, 0, 1, 1, 1);
        }

        void release() {
            for (Mat m : new Mat[] {a, b, sharpen, emboss, prewittX, prewittY}) {
                m.release();
            }
        }
    }

    /**
     * xv's Sharpen on a grey pixel: {@code v' = (Vc − f·S/9) / g} with {@code f = p/100}, {@code g = 1 − f} and S
     * the sum of the 3×3 window: a linear filter, centre weight {@code (1 − f/9)/g}, the others {@code −(f/9)/g}.
     * The weights sum to 1, so it commutes with the signed offset; OpenCV's saturation to the 16-bit word is xv's
     * clamp to [min, max] for 16 bits stored.
     */
    static Mat sharpenKernel(int p) {
        double f = p / 100.0;
        double g = 1.0 - f;
        double other = -(f / 9) / g;
        double centre = (1 - f / 9) / g;
        Mat k = new Mat(3, 3, CvType.CV_32F);
        k.put(0, 0, other, other, other, other, centre, other, other, other, other);
        return k;
    }

    private static final Map<String, Counterpart> COUNTERPARTS = Map.of(
            "blur", (src, dst, s) -> Imgproc.blur(src, dst, new Size(3, 3)),
            "sharpen", (src, dst, s) -> Imgproc.filter2D(src, dst, -1, s.sharpen),
            "despeckle", (src, dst, s) -> Imgproc.medianBlur(src, dst, 3),
            "edge-detect", OpenCvGray16Variant::edges,
            "emboss", OpenCvGray16Variant::emboss,
            "pixelize", OpenCvGray16Variant::pixelize);

    /** Counterparts whose interior equals xv's within one grey level (rounding); borders differ. */
    static final java.util.Set<String> EQUIVALENT = java.util.Set.of("blur", "sharpen", "despeckle", "emboss",
            "pixelize");

    /** What each counterpart is, for the report. */
    static final Map<String, String> DESCRIPTIONS = Map.of(
            "blur", "Imgproc.blur 3×3 (equivalent: box mean; rounds where xv floors)",
            "sharpen", "filter2D with xv's grey Sharpen as a 3×3 kernel, p = 75 (equivalent: float32, rounds)",
            "despeckle", "Imgproc.medianBlur 3, 16U only (equivalent: 3×3 median; OpenCV has no 16S median)",
            "edge-detect", "Prewitt x and y by filter2D to 32F, |·|, max, minMaxLoc, convertTo with the stretch "
                    + "(comparable: xv's frame values join the maximum, integer /3)",
            "emboss", "filter2D emboss kernel /8 + mid-grey (equivalent: rounds where xv truncates toward zero)",
            "pixelize", "resize INTER_AREA to 1/4, INTER_NEAREST back (equivalent when 4 divides the size; rounds)");

    private final Counterpart counterpart;
    private final Mat src;
    private final Mat dst;
    private final Scratch scratch;

    OpenCvGray16Variant(String filter, GrayRaster16 source, GrayRaster16 destination) {
        OpenCv.load();
        GrayFormat format = new GrayFormat(source.bitsStored(), source.signed());
        if (!hasCounterpart(filter, format)) {
            throw new IllegalArgumentException("OpenCV has no 16-bit counterpart of " + filter + " on "
                    + format.openCvDepthName() + " data");
        }
        source.requireSameFormat(destination);
        this.counterpart = COUNTERPARTS.get(filter);
        int type = source.signed() ? CvType.CV_16SC1 : CvType.CV_16UC1;
        src = new Mat(source.height(), source.width(), type);
        src.put(0, 0, source.words());
        dst = new Mat(destination.height(), destination.width(), type);
        scratch = new Scratch(format);
    }

    /** medianBlur takes 16U (for ksize 3 and 5) but not 16S; the others take both depths. */
    static boolean hasCounterpart(String filter, GrayFormat format) {
        return COUNTERPARTS.containsKey(filter) && !(filter.equals("despeckle") && format.signed());
    }

    /** The result as words (for tests). */
    static short[] words(Mat m) {
        short[] words = new short[m.rows() * m.cols()];
        m.get(0, 0, words);
        return words;
    }

    @Override
    public Object run() {
        src.copyTo(dst);
        counterpart.apply(src, dst, scratch);
        return dst;
    }

    @Override
    public void close() {
        src.release();
        dst.release();
        scratch.release();
    }

    /** max(|Gx|, |Gy|) of the Prewitt masks, stretched so the largest becomes max (xv: E·R/maxv, + min). */
    private static void edges(Mat src, Mat dst, Scratch s) {
        Imgproc.filter2D(src, s.a, CvType.CV_32F, s.prewittX);
        Imgproc.filter2D(src, s.b, CvType.CV_32F, s.prewittY);
        Core.absdiff(s.a, Scalar.all(0), s.a);
        Core.absdiff(s.b, Scalar.all(0), s.b);
        Core.max(s.a, s.b, s.a);
        double maxE = Core.minMaxLoc(s.a).maxVal;
        int range = s.format.maxValue() - s.format.minValue();
        s.a.convertTo(dst, dst.type(), maxE > 0 ? range / maxE : 1, s.format.minValue());
    }

    /** xv: M + S/8 with M the middle of the range (2^(b−1) in offset values: 32768 unsigned, 0 signed). */
    private static void emboss(Mat src, Mat dst, Scratch s) {
        int middle = s.format.minValue() + (1 << (s.format.bitsStored() - 1));
        Imgproc.filter2D(src, dst, -1, s.emboss, new Point(-1, -1), middle);
    }

    private static void pixelize(Mat src, Mat dst, Scratch s) {
        Imgproc.resize(src, s.a, new Size(Math.max(1, src.cols() / 4), Math.max(1, src.rows() / 4)), 0, 0,
                Imgproc.INTER_AREA);
        Imgproc.resize(s.a, dst, src.size(), 0, 0, Imgproc.INTER_NEAREST);
    }
}
