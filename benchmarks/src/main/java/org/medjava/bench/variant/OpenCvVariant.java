package org.medjava.bench.variant;

import java.util.Map;
import org.medjava.filter.Raster;
import org.opencv.core.Core;
import org.opencv.core.CvType;
import org.opencv.core.Mat;
import org.opencv.core.Point;
import org.opencv.core.Size;
import org.opencv.imgproc.Imgproc;

/**
 * OpenCV's closest counterpart of a filter, on the same image, single-threaded. Not bit-exact (OpenCV's border
 * rules, rounding and kernels differ from xv's); it shows what a tuned native library does with the same job. Like
 * every variant it first copies the source into the destination.
 */
final class OpenCvVariant implements FilterVariant {

    /** One filter's OpenCV pipeline from {@code src} into {@code dst}, with scratch matrices it may keep. */
    private interface Counterpart {
        void apply(Mat src, Mat dst, Scratch scratch);
    }

    /** Scratch matrices reused across calls (OpenCV reallocates an output only when its size or type changes). */
    private static final class Scratch {
        final Mat a = new Mat();
        final Mat b = new Mat();
        final Mat c = new Mat();
        /** xv's emboss kernel, divided by 8 (OpenCV then rounds; xv truncates toward zero). */
        final Mat embossKernel = new Mat(3, 3, CvType.CV_32F);

        Scratch() {
            embossKernel.put(0, 0, -2 / 8.0, -1 / 8.0, 0, -1 / 8.0, 0, 1 / 8.0, 0, 1 / 8.0, 2 / 8.0);
        }

        void release() {
            a.release();
            b.release();
            c.release();
            embossKernel.release();
        }
    }

    private static final Map<String, Counterpart> COUNTERPARTS = Map.of(
            "blur", (src, dst, s) -> Imgproc.blur(src, dst, new Size(3, 3)),
            "despeckle", (src, dst, s) -> Imgproc.medianBlur(src, dst, 3),
            "edge-detect", OpenCvVariant::edges,
            "emboss", OpenCvVariant::emboss,
            "pixelize", OpenCvVariant::pixelize);

    /** What each counterpart is, for the report. */
    static final Map<String, String> DESCRIPTIONS = Map.of(
            "blur", "Imgproc.blur 3×3",
            "despeckle", "Imgproc.medianBlur 3",
            "edge-detect", "Sobel x and y (CV_16S), convertScaleAbs, max",
            "emboss", "filter2D emboss kernel /8 + 128, to grey and back to RGB",
            "pixelize", "resize INTER_AREA to 1/4, resize INTER_NEAREST back");

    private final Counterpart counterpart;
    private final Mat src;
    private final Mat dst;
    private final Scratch scratch;

    OpenCvVariant(String filter, Raster source, Raster destination) {
        OpenCv.load();
        this.counterpart = COUNTERPARTS.get(filter);
        if (counterpart == null) {
            throw new IllegalArgumentException("OpenCV has no counterpart of " + filter + "; it has "
                    + COUNTERPARTS.keySet());
        }
        src = new Mat(source.height(), source.width(), CvType.CV_8UC3);
        src.put(0, 0, source.rgb());
        dst = new Mat(destination.height(), destination.width(), CvType.CV_8UC3);
        scratch = new Scratch();
    }

    static boolean hasCounterpart(String filter) {
        return COUNTERPARTS.containsKey(filter);
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

    private static void edges(Mat src, Mat dst, Scratch s) {
        Imgproc.Sobel(src, s.a, CvType.CV_16S, 1, 0);
        Imgproc.Sobel(src, s.b, CvType.CV_16S, 0, 1);
        Core.convertScaleAbs(s.a, s.c);
        Core.convertScaleAbs(s.b, s.a);
        Core.max(s.c, s.a, dst);
    }

    private static void emboss(Mat src, Mat dst, Scratch s) {
        Imgproc.filter2D(src, s.a, -1, s.embossKernel, new Point(-1, -1), 128);
        Imgproc.cvtColor(s.a, s.b, Imgproc.COLOR_RGB2GRAY);
        Imgproc.cvtColor(s.b, dst, Imgproc.COLOR_GRAY2RGB);
    }

    private static void pixelize(Mat src, Mat dst, Scratch s) {
        Imgproc.resize(src, s.a, new Size(Math.max(1, src.cols() / 4), Math.max(1, src.rows() / 4)), 0, 0,
                Imgproc.INTER_AREA);
        Imgproc.resize(s.a, dst, src.size(), 0, 0, Imgproc.INTER_NEAREST);
    }
}
