package org.medjava.codec.dicom;

import com.pixelmed.dicom.AttributeList;
import java.util.List;
import java.util.Optional;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Raster;

/**
 * One decoded frame of a DICOM image, with what is needed to display it and to derive new objects from it.
 * Grey images keep their stored values ({@link #storedValues()}, signed where Pixel Representation says so, only the
 * Bits Stored bits) and are rendered through a {@link Window}; colour images (RGB, YBR converted to RGB, palette
 * colour looked up) hold 8-bit RGB and ignore windows.
 */
public final class DicomImage {
    private final AttributeList header;
    private final DicomAttributes attributes;
    private final int columns;
    private final int rows;
    private final int frame;
    private final int frameCount;
    private final String photometric;
    private final int bitsStored;
    private final boolean signed;
    private final double rescaleSlope;
    private final double rescaleIntercept;
    private final List<Window> windowPresets;
    private final int[] values;
    private final byte[] rgb;
    /** {@link #storedRange}, once asked. */
    private int[] range;

    DicomImage(AttributeList header, DicomAttributes attributes, int columns, int rows, int frame, int frameCount,
            String photometric, int bitsStored, boolean signed, double rescaleSlope, double rescaleIntercept,
            List<Window> windowPresets, int[] values, byte[] rgb) {
        this.header = header;
        this.attributes = attributes;
        this.columns = columns;
        this.rows = rows;
        this.frame = frame;
        this.frameCount = frameCount;
        this.photometric = photometric;
        this.bitsStored = bitsStored;
        this.signed = signed;
        this.rescaleSlope = rescaleSlope;
        this.rescaleIntercept = rescaleIntercept;
        this.windowPresets = List.copyOf(windowPresets);
        this.values = values;
        this.rgb = rgb;
    }

    /** The dataset without its Pixel Data (PixelMed's type; do not modify it). */
    public AttributeList header() {
        return header;
    }

    /** Patient, study, series and instance identification. */
    public DicomAttributes attributes() {
        return attributes;
    }

    public int width() {
        return columns;
    }

    public int height() {
        return rows;
    }

    /** Index of this frame, from 0. */
    public int frame() {
        return frame;
    }

    public int frameCount() {
        return frameCount;
    }

    /** As in the file, e.g. MONOCHROME2, RGB, YBR_FULL_422, PALETTE COLOR. */
    public String photometricInterpretation() {
        return photometric;
    }

    /** MONOCHROME1 or MONOCHROME2: stored values and windows apply; otherwise the image is colour. */
    public boolean isGrey() {
        return values != null;
    }

    public boolean isMonochrome1() {
        return "MONOCHROME1".equals(photometric);
    }

    public int bitsStored() {
        return bitsStored;
    }

    public boolean isSigned() {
        return signed;
    }

    public double rescaleSlope() {
        return rescaleSlope;
    }

    public double rescaleIntercept() {
        return rescaleIntercept;
    }

    /** The stored values of a grey frame, row by row (the array itself, not a copy). */
    public int[] storedValues() {
        requireGrey();
        return values;
    }

    /**
     * Whether the filters can run on this frame's stored values: grey (MONOCHROME1/2) of 1..16 bits stored, signed
     * or unsigned ({@link #grayRaster()}).
     */
    public boolean isGray16() {
        return isGrey() && bitsStored <= 16;
    }

    /**
     * Whether this frame is colour held as 8-bit RGB without loss (8 or fewer bits per channel, or palette colour):
     * the data the 8-bit filters serve. Colour of more than 8 bits per channel is shown reduced to 8 bits, but is
     * not filtered.
     */
    public boolean isRgb8() {
        return !isGrey() && (bitsStored <= 8 || "PALETTE COLOR".equals(photometric));
    }

    /**
     * What the data is, for messages of hosts that refuse it: e.g. "12-bit signed grey", "32-bit unsigned grey",
     * "16-bit RGB colour", "8-bit YBR_FULL_422 colour".
     */
    public String dataDescription() {
        if (isGrey()) {
            return GrayRaster16.describe(bitsStored, signed);
        }
        return bitsStored + "-bit " + photometric + " colour";
    }

    /**
     * The frame's stored values as a grey raster (a new copy): Bits Stored bits, signed where Pixel Representation
     * says so, as the filters of docs/xv-filters-16bit.md take them. Rescale, windows and MONOCHROME1 stay with this
     * image ({@link #withStoredValues}, {@link #render(Window)}).
     *
     * @throws UnsupportedDicomException for colour frames and grey frames of more than 16 bits stored, naming the data
     */
    public GrayRaster16 grayRaster() throws UnsupportedDicomException {
        if (!isGray16()) {
            throw new UnsupportedDicomException("DICOM " + dataDescription() + " data has no 16-bit grey raster: "
                    + "only MONOCHROME1/MONOCHROME2 frames of 1 to 16 bits stored are filtered on their stored values");
        }
        short[] words = new short[values.length];
        for (int i = 0; i < words.length; i++) {
            words[i] = (short) values[i];
        }
        return new GrayRaster16(columns, rows, bitsStored, signed, words);
    }

    /**
     * This image with the stored values of {@code raster} (e.g. a filtered copy of {@link #grayRaster()}): same
     * header, rescale, windows and photometric interpretation, so {@link #render(Window)} windows the new values
     * exactly as it windows this image's own.
     *
     * @throws IllegalArgumentException if {@code raster} differs from this frame in size, bits stored or signedness
     * @throws IllegalStateException for a frame that is not 16-bit grey
     */
    public DicomImage withStoredValues(GrayRaster16 raster) {
        if (!isGray16()) {
            throw new IllegalStateException(dataDescription() + " image has no 16-bit grey stored values");
        }
        if (raster.width() != columns || raster.height() != rows || raster.bitsStored() != bitsStored
                || raster.signed() != signed) {
            throw new IllegalArgumentException(raster + " does not match the " + columns + "x" + rows + " "
                    + dataDescription() + " frame");
        }
        short[] words = raster.words();
        int[] v = new int[words.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = GrayRaster16.value(words[i], signed);
        }
        return new DicomImage(header, attributes, columns, rows, frame, frameCount, photometric, bitsStored, signed,
                rescaleSlope, rescaleIntercept, windowPresets, v, null);
    }

    /** Stored value times Rescale Slope plus Rescale Intercept (e.g. Hounsfield units for CT). */
    public double modalityValue(int x, int y) {
        requireGrey();
        if (x < 0 || y < 0 || x >= columns || y >= rows) {
            throw new IndexOutOfBoundsException("(" + x + "," + y + ") outside " + columns + "x" + rows);
        }
        return values[y * columns + x] * rescaleSlope + rescaleIntercept;
    }

    /** Window Center/Width pairs from the file, in order; empty when it has none. */
    public List<Window> windowPresets() {
        return windowPresets;
    }

    /** The first window in the file, else the range of the frame's modality values. Empty for colour images. */
    public Optional<Window> defaultWindow() {
        if (!isGrey()) {
            return Optional.empty();
        }
        return Optional.of(greyDefaultWindow());
    }

    /** {@link #defaultWindow} of a grey image. */
    private Window greyDefaultWindow() {
        if (!windowPresets.isEmpty()) {
            return windowPresets.get(0);
        }
        int[] range = storedRange();
        // the rescale is monotonic (so is its rounding): the extremes of the stored values give those of the result
        double a = range[0] * rescaleSlope + rescaleIntercept;
        double b = range[1] * rescaleSlope + rescaleIntercept;
        return Window.ofRange(Math.min(a, b), Math.max(a, b));
    }

    /** The frame as 8-bit RGB through the default window. */
    public Raster render() {
        return render(defaultWindow().orElse(null));
    }

    /**
     * The frame as 8-bit RGB. Grey frames go through {@code window} (the default when null) and are inverted for
     * MONOCHROME1; colour frames ignore it.
     */
    public Raster render(Window window) {
        if (!isGrey()) {
            return new Raster(columns, rows, rgb.clone());
        }
        byte[] grey = renderGrey(window);
        byte[] out = new byte[3 * grey.length];
        for (int p = 0, i = 0; p < grey.length; p++, i += 3) {
            byte v = grey[p];
            out[i] = v;
            out[i + 1] = v;
            out[i + 2] = v;
        }
        return new Raster(columns, rows, out);
    }

    /**
     * A grey frame as 8-bit levels, one byte a pixel, row by row: what {@link #render(Window)} puts in each of its
     * three channels (a thumbnail is reduced from these, a third of the bytes).
     */
    public byte[] renderGrey(Window window) {
        requireGrey();
        Window w = window != null ? window : greyDefaultWindow();
        byte[] out = new byte[values.length];
        boolean invert = isMonochrome1();
        // Stored values of up to 16 bits go through a lookup table; wider ones are computed one by one.
        int offset = signed ? 1 << (bitsStored - 1) : 0;
        byte[] lut = bitsStored <= 16 ? lookupTable(w, offset, invert) : null;
        for (int p = 0; p < values.length; p++) {
            out[p] = lut != null ? lut[values[p] + offset] : level(w, values[p] * rescaleSlope + rescaleIntercept,
                    invert);
        }
        return out;
    }

    /** A lookup table's parameters: every frame of a series in the same window shares one. */
    private record Levels(double center, double width, double slope, double intercept, int bitsStored,
                          boolean signed, boolean invert) {
    }

    /** Tables made lately (a few dozen at most: one per window and kind of data). */
    private static final java.util.Map<Levels, byte[]> TABLES = new java.util.concurrent.ConcurrentHashMap<>();

    /** The level of every stored value up to 16 bits (offset by {@code offset}) in window {@code w}. */
    private byte[] lookupTable(Window w, int offset, boolean invert) {
        Levels key = new Levels(w.center(), w.width(), rescaleSlope, rescaleIntercept, bitsStored, signed, invert);
        byte[] lut = TABLES.get(key);
        if (lut == null) {
            lut = new byte[1 << bitsStored];
            for (int i = 0; i < lut.length; i++) {
                lut[i] = level(w, (i - offset) * rescaleSlope + rescaleIntercept, invert);
            }
            if (TABLES.size() >= 64) {
                TABLES.clear();
            }
            TABLES.put(key, lut);
        }
        return lut;
    }

    /** This image, its values' least and greatest {@code range} known (worked out as they were read). */
    DicomImage withRange(int[] range) {
        this.range = range.clone();
        return this;
    }

    /** The least and greatest stored value (0, 0 for none), worked out once (the values do not change). */
    private int[] storedRange() {
        int[] range = this.range;
        if (range == null) {
            int min = values.length == 0 ? 0 : Integer.MAX_VALUE;
            int max = values.length == 0 ? 0 : Integer.MIN_VALUE;
            for (int v : values) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
            this.range = range = new int[] {min, max};
        }
        return range;
    }

    private static byte level(Window w, double modality, boolean invert) {
        int y = w.apply(modality);
        return (byte) (invert ? 255 - y : y);
    }

    private void requireGrey() {
        if (!isGrey()) {
            throw new IllegalStateException(photometric + " image has no grey stored values");
        }
    }

    @Override
    public String toString() {
        return "DicomImage[" + columns + "x" + rows + " " + photometric + " frame " + frame + "/" + frameCount + " "
                + attributes + "]";
    }
}
