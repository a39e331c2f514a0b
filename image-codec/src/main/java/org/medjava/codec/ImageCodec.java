package org.medjava.codec;

import java.awt.image.BufferedImage;
import java.awt.image.ColorModel;
import java.awt.image.IndexColorModel;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.ImageOutputStream;
import org.medjava.filter.Raster;

/**
 * Reads and writes rasters as PPM, PNG, GIF and JPEG, and reads DICOM (frame 0 through its default window; see
 * {@code dicom.DicomCodec} for frames, windows and attributes). Reading identifies the format from the content, not the
 * name, and refuses images over a pixel limit before decoding their pixels. Writing to a file is atomic: a
 * failed write leaves no partial file and never damages an existing one.
 */
public final class ImageCodec {
    /** Default limit: 16384 x 16384 pixels (768 MiB as RGB). */
    public static final long DEFAULT_MAX_PIXELS = 16384L * 16384L;

    private ImageCodec() {
    }

    public static Raster read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, DEFAULT_MAX_PIXELS);
        } catch (ImageDecodeException e) {
            throw new ImageDecodeException(file + ": " + e.getMessage(), e);
        }
    }

    public static Raster read(InputStream input, long maxPixels) throws IOException {
        BufferedInputStream in = new BufferedInputStream(input, 1 << 16);
        in.mark(ImageFormat.SNIFF_LENGTH + 1);
        byte[] head = in.readNBytes(ImageFormat.SNIFF_LENGTH);
        in.reset();
        ImageFormat format = ImageFormat.sniff(head).orElseThrow(() -> new ImageDecodeException(
                head.length == 0 ? "empty input, no image" : "unrecognised image data; readable formats: "
                        + ImageFormat.describeAll()));
        if (format == ImageFormat.PPM) {
            return Ppm.read(in, maxPixels);
        }
        if (format == ImageFormat.DICOM) {
            return DicomReading.get().readRaster(in, maxPixels);
        }
        return readWithImageIo(in, format, maxPixels);
    }

    private static Raster readWithImageIo(InputStream in, ImageFormat format, long maxPixels) throws IOException {
        try (ImageInputStream stream = ImageIO.createImageInputStream(in)) {
            ImageReader reader = reader(format);
            try {
                reader.setInput(stream, true, true);
                long pixels = (long) reader.getWidth(0) * reader.getHeight(0);
                if (pixels > Math.min(maxPixels, Raster.MAX_PIXELS)) {
                    throw new ImageDecodeException(format + " " + reader.getWidth(0) + "x" + reader.getHeight(0)
                            + " exceeds the limit of " + Math.min(maxPixels, Raster.MAX_PIXELS) + " pixels");
                }
                return toRaster(reader.read(0));
            } catch (ImageDecodeException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                throw new ImageDecodeException(format + " data is damaged or truncated: " + e.getMessage(), e);
            } finally {
                reader.dispose();
            }
        }
    }

    /**
     * The ImageIO reader of a format already told from the content. Chosen by the format's name, not by
     * {@code ImageIO.getImageReaders(stream)}: that asks every registered reader whether it can decode the stream,
     * and PixelMed's JPEG-lossless reader (pixelmed-imageio, on the class path for DICOM) prints its answer to
     * {@code System.err} each time ("JPEGLosslessImageReaderSpi.canDecodeInput() = false").
     */
    static ImageReader reader(ImageFormat format) throws ImageDecodeException {
        Iterator<ImageReader> readers = ImageIO.getImageReadersByFormatName(imageIoName(format));
        if (!readers.hasNext()) {
            throw new ImageDecodeException("no reader for " + format);
        }
        return readers.next();
    }

    /**
     * A GIF, PNG or JPEG as ImageIO decodes it (for display: icons, thumbnails), its reader chosen from the content
     * like {@link #read}'s, so nothing is printed (see {@link #reader}).
     *
     * @throws ImageDecodeException when it is not such an image or does not decode
     */
    public static BufferedImage decodeImage(byte[] data) throws IOException {
        ImageFormat format = ImageFormat.sniff(java.util.Arrays.copyOf(data, Math.min(data.length,
                ImageFormat.SNIFF_LENGTH))).filter(f -> f == ImageFormat.PNG || f == ImageFormat.GIF
                        || f == ImageFormat.JPEG).orElseThrow(() -> new ImageDecodeException("not a GIF, PNG or JPEG"));
        try (ImageInputStream stream = ImageIO.createImageInputStream(new ByteArrayInputStream(data))) {
            ImageReader reader = reader(format);
            try {
                reader.setInput(stream, true, true);
                return reader.read(0);
            } catch (IOException | RuntimeException e) {
                throw new ImageDecodeException(format + " data is damaged or truncated: " + e.getMessage(), e);
            } finally {
                reader.dispose();
            }
        }
    }

    /** The format's name in ImageIO (png, gif, jpeg). */
    static String imageIoName(ImageFormat format) {
        return format == ImageFormat.JPEG ? "jpeg" : format.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Any BufferedImage to RGB; grey samples are taken as they are (no colour-space conversion). */
    public static Raster toRaster(BufferedImage image) {
        int w = image.getWidth();
        int h = image.getHeight();
        Raster raster = new Raster(w, h);
        byte[] rgb = raster.rgb();
        ColorModel cm = image.getColorModel();
        java.awt.image.Raster data = image.getRaster();
        boolean grey = !(cm instanceof IndexColorModel) && data.getNumBands() <= 2
                && cm.getColorSpace().getType() == java.awt.color.ColorSpace.TYPE_GRAY;
        if (grey) {
            int shift = Math.max(0, data.getSampleModel().getSampleSize(0) - 8);
            int[] row = new int[w];
            for (int y = 0; y < h; y++) {
                data.getSamples(0, y, w, 1, 0, row);
                for (int x = 0, i = 3 * y * w; x < w; x++, i += 3) {
                    byte v = (byte) (row[x] >>> shift);
                    rgb[i] = v;
                    rgb[i + 1] = v;
                    rgb[i + 2] = v;
                }
            }
            return raster;
        }
        int[] row = new int[w];
        for (int y = 0; y < h; y++) {
            image.getRGB(0, y, w, 1, row, 0, w);
            for (int x = 0, i = 3 * y * w; x < w; x++, i += 3) {
                int p = row[x];
                rgb[i] = (byte) (p >>> 16);
                rgb[i + 1] = (byte) (p >>> 8);
                rgb[i + 2] = (byte) p;
            }
        }
        return raster;
    }

    /**
     * A BufferedImage for writing: 8-bit grey when every pixel is grey, indexed with an exact palette when there
     * are at most 256 colours (for GIF), otherwise RGB.
     */
    static BufferedImage toBufferedImage(Raster raster, boolean wantIndexed) {
        int w = raster.width();
        int h = raster.height();
        byte[] rgb = raster.rgb();
        if (wantIndexed) {
            BufferedImage indexed = exactIndexed(raster);
            if (indexed != null) {
                return indexed;
            }
        } else if (isGrey(rgb)) {
            BufferedImage grey = new BufferedImage(w, h, BufferedImage.TYPE_BYTE_GRAY);
            byte[] samples = new byte[w * h];
            for (int p = 0; p < samples.length; p++) {
                samples[p] = rgb[3 * p];
            }
            grey.getRaster().setDataElements(0, 0, w, h, samples);
            return grey;
        }
        BufferedImage image = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        int[] row = new int[w];
        for (int y = 0; y < h; y++) {
            for (int x = 0, i = 3 * y * w; x < w; x++, i += 3) {
                row[x] = (rgb[i] & 0xFF) << 16 | (rgb[i + 1] & 0xFF) << 8 | (rgb[i + 2] & 0xFF);
            }
            image.setRGB(0, y, w, 1, row, 0, w);
        }
        return image;
    }

    private static boolean isGrey(byte[] rgb) {
        for (int i = 0; i < rgb.length; i += 3) {
            if (rgb[i] != rgb[i + 1] || rgb[i] != rgb[i + 2]) {
                return false;
            }
        }
        return true;
    }

    /** An indexed image holding exactly the raster's colours, or null when it has more than 256. */
    private static BufferedImage exactIndexed(Raster raster) {
        byte[] rgb = raster.rgb();
        Map<Integer, Integer> palette = new LinkedHashMap<>();
        byte[] indices = new byte[raster.width() * raster.height()];
        for (int p = 0, i = 0; p < indices.length; p++, i += 3) {
            int colour = (rgb[i] & 0xFF) << 16 | (rgb[i + 1] & 0xFF) << 8 | (rgb[i + 2] & 0xFF);
            Integer index = palette.get(colour);
            if (index == null) {
                if (palette.size() == 256) {
                    return null;
                }
                index = palette.size();
                palette.put(colour, index);
            }
            indices[p] = (byte) (int) index;
        }
        int size = Math.max(2, palette.size());
        byte[] r = new byte[size];
        byte[] g = new byte[size];
        byte[] b = new byte[size];
        palette.forEach((colour, index) -> {
            r[index] = (byte) (colour >>> 16);
            g[index] = (byte) (colour >>> 8);
            b[index] = (byte) (int) colour;
        });
        int bits = 32 - Integer.numberOfLeadingZeros(size - 1);
        IndexColorModel model = new IndexColorModel(Math.max(1, bits), size, r, g, b);
        BufferedImage image = new BufferedImage(raster.width(), raster.height(), BufferedImage.TYPE_BYTE_INDEXED,
                model);
        image.getRaster().setDataElements(0, 0, raster.width(), raster.height(), indices);
        return image;
    }

    /**
     * Encodes a raster. GIF holds at most 256 colours: a raster with more is quantized by the JDK's GIF writer
     * (see {@link #isLossless}); JPEG is lossy at quality 0.92.
     */
    public static void write(Raster raster, ImageFormat format, OutputStream out) throws IOException {
        if (format == ImageFormat.PPM) {
            Ppm.write(raster, out);
            return;
        }
        if (format == ImageFormat.DICOM) {
            throw new IOException("DICOM is not written from a bare raster: a derived DICOM needs its source "
                    + "object's patient and study (see org.medjava.codec.dicom)");
        }
        ImageWriter writer = ImageIO.getImageWritersByFormatName(imageIoName(format)).next();
        // in memory: ImageIO's default for a stream is a temporary file per image
        try (ImageOutputStream stream = new javax.imageio.stream.MemoryCacheImageOutputStream(out)) {
            writer.setOutput(stream);
            ImageWriteParam param = writer.getDefaultWriteParam();
            if (format == ImageFormat.JPEG) {
                param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
                param.setCompressionQuality(0.92f);
            }
            writer.write(null, new IIOImage(toBufferedImage(raster, format == ImageFormat.GIF), null, null), param);
            stream.flush();
        } finally {
            writer.dispose();
        }
    }

    /** Whether {@link #write} stores this raster in this format without changing a pixel. */
    public static boolean isLossless(Raster raster, ImageFormat format) {
        return format == ImageFormat.PPM || format == ImageFormat.PNG
                || (format == ImageFormat.GIF && exactIndexed(raster) != null);
    }

    /** Writes to {@code file} (format from its extension) through a temp file, fsync and an atomic rename. */
    public static void write(Raster raster, Path file) throws IOException {
        ImageFormat format = ImageFormat.fromFileName(file).orElseThrow(() -> new IOException(
                "cannot tell the output format from \"" + file.getFileName() + "\"; use one of: "
                        + ImageFormat.describeAll()));
        writeAtomically(file, out -> write(raster, format, out));
    }

    /** What writes the bytes of a file. */
    @FunctionalInterface
    public interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Runs {@code body} into a temp file beside {@code file}, forces it to disk and renames it over {@code file}.
     * If anything fails, the temp file is deleted and {@code file} is as it was. The file gets the mode any new file
     * gets (the umask's); a refusal of the file system says "cannot write FILE: reason".
     */
    public static void writeAtomically(Path file, Body body) throws IOException {
        AtomicFile.write(file, body);
    }

    /** Reads from bytes already in memory. */
    public static Raster read(byte[] data) throws IOException {
        return read(new ByteArrayInputStream(data), DEFAULT_MAX_PIXELS);
    }
}
