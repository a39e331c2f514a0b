package org.medjava.codec;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What an image declares about its size, read from its header without decoding a pixel: PNG's IHDR, GIF's logical
 * screen and image descriptors, JPEG's frame header (SOF), DICOM's Rows, Columns, Number of Frames, Bits Allocated
 * and Samples per Pixel. Lets a caller know what decoding will cost before it decodes (admission control): a 32 KB
 * PNG may declare 268,000,000 x 1 pixels.
 *
 * @param width          pixels per row (of the first frame)
 * @param height         rows (of the first frame)
 * @param frames         frames in the image (GIF: image descriptors; DICOM: Number of Frames; else 1)
 * @param bytesPerPixel  bytes one decoded pixel takes (samples x bytes per sample)
 */
public record ImageHeader(ImageFormat format, long width, long height, int frames, int bytesPerPixel) {

    public long pixels() {
        return saturatingMultiply(width, height);
    }

    /** Decoded bytes of one frame: width x height x bytes per pixel. */
    public long frameBytes() {
        return saturatingMultiply(pixels(), bytesPerPixel);
    }

    /** Decoded bytes of every frame: width x height x bytes per pixel x frames (Long.MAX_VALUE when larger). */
    public long decodedBytes() {
        return saturatingMultiply(frameBytes(), frames);
    }

    @Override
    public String toString() {
        return format + " " + width + "x" + height + (frames > 1 ? " x " + frames + " frames" : "") + ", "
                + bytesPerPixel + " bytes per pixel";
    }

    /** The header of an image file (only its header is read). */
    public static ImageHeader peek(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return peek(in);
        }
    }

    /**
     * The header of the image that {@code input} begins with; reads no further than the header (GIF: its block
     * structure, skipping the pixel data, to count frames).
     *
     * @throws ImageDecodeException when the data is not a recognised image or its header is damaged, saying how
     */
    public static ImageHeader peek(InputStream input) throws IOException {
        BufferedInputStream in = new BufferedInputStream(input, 1 << 16);
        in.mark(ImageFormat.SNIFF_LENGTH + 1);
        byte[] head = in.readNBytes(ImageFormat.SNIFF_LENGTH);
        in.reset();
        ImageFormat format = ImageFormat.sniff(head).orElseThrow(() -> new ImageDecodeException(
                head.length == 0 ? "empty input, no image" : "unrecognised image data; readable formats: "
                        + ImageFormat.describeAll()));
        try {
            return switch (format) {
                case PNG -> HeaderReaders.png(in);
                case GIF -> HeaderReaders.gif(in);
                case JPEG -> HeaderReaders.jpeg(in);
                case DICOM -> HeaderReaders.dicom(in);
                case PPM -> HeaderReaders.ppm(in);
            };
        } catch (EOFException e) {
            throw new ImageDecodeException(format + " header is truncated: the data ends inside it", e);
        }
    }

    /** a x b, or Long.MAX_VALUE when the product does not fit (sizes never are negative). */
    public static long saturatingMultiply(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long low = a * b;
        return high != 0 || low < 0 ? Long.MAX_VALUE : low;
    }
}
