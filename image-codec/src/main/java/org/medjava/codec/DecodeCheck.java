package org.medjava.codec;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import org.medjava.filter.Raster;

/**
 * Proves that a GIF, PNG or JPEG decodes, as {@link ImageCodec#read} would, without holding its pixels: the decoder
 * runs over all of the compressed data (every row is inflated, unfiltered or entropy-decoded, so damage anywhere is
 * found) but keeps only a subsample of at most {@value #KEPT_SIDE} x {@value #KEPT_SIDE} pixels, and nothing is
 * converted to a raster. Memory is then bounded by {@link #memoryBytes}, not by the image's size; the time is that of
 * the decompression alone.
 */
public final class DecodeCheck {

    /** The largest side of the subsample the check keeps. */
    public static final int KEPT_SIDE = 1024;

    private DecodeCheck() {
    }

    /**
     * What checking an image with this header holds in memory at most: the subsample and the decoder's row buffers
     * (PNG keeps the current and the previous row, each as wide as the image).
     */
    public static long memoryBytes(ImageHeader header) {
        long keptPixels = Math.min(header.width(), KEPT_SIDE) * Math.min(header.height(), KEPT_SIDE);
        long rowBuffers = ImageHeader.saturatingMultiply(2L * header.width(), header.bytesPerPixel());
        return keptPixels * Math.max(4, header.bytesPerPixel()) + rowBuffers;
    }

    /** Refuses an image of more pixels than {@code maxPixels} (or than a raster holds), as the decoders do. */
    public static void requireWithin(ImageHeader header, long maxPixels) throws ImageDecodeException {
        long limit = Math.min(maxPixels, Raster.MAX_PIXELS);
        if (header.pixels() > limit) {
            throw new ImageDecodeException(header.format() + " " + header.width() + "x" + header.height()
                    + " exceeds the limit of " + limit + " pixels");
        }
    }

    /**
     * Decodes {@code file} (GIF, PNG or JPEG; its first frame) through the data's end, keeping a subsample.
     *
     * @param maxPixels images with more pixels are refused before decoding
     * @return the image's header
     * @throws ImageDecodeException when it is not such an image or does not decode, saying why
     */
    public static ImageHeader verify(Path file, long maxPixels) throws IOException {
        ImageHeader header = ImageHeader.peek(file);
        if (header.format() == ImageFormat.DICOM || header.format() == ImageFormat.PPM) {
            throw new ImageDecodeException(header.format() + " is not checked here; read it with its codec");
        }
        requireWithin(header, maxPixels);
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
             ImageInputStream stream = ImageIO.createImageInputStream(in)) {
            ImageReader reader = ImageCodec.reader(header.format());
            try {
                reader.setInput(stream, true, true);
                ImageReadParam param = reader.getDefaultReadParam();
                int stepX = (int) ((header.width() + KEPT_SIDE - 1) / KEPT_SIDE);
                int stepY = (int) ((header.height() + KEPT_SIDE - 1) / KEPT_SIDE);
                param.setSourceSubsampling(stepX, stepY, 0, 0);
                reader.read(0, param);
                return header;
            } catch (IOException | RuntimeException e) {
                throw new ImageDecodeException(header.format() + " data is damaged or truncated: " + e.getMessage(),
                        e);
            } finally {
                reader.dispose();
            }
        }
    }
}
