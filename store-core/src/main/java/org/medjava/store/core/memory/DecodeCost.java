package org.medjava.store.core.memory;

import org.medjava.codec.DecodeCheck;
import org.medjava.codec.ImageFormat;
import org.medjava.codec.ImageHeader;

/**
 * What decoding an image holds in memory, estimated from its header ({@link ImageHeader}) before a pixel is decoded.
 * Estimates err on the large side; they count what the decoders allocate, not the compressed size.
 */
public final class DecodeCost {

    private DecodeCost() {
    }

    /**
     * A full decode to a raster (rendering, thumbnails, derived objects, validation of DICOM): GIF, PNG and JPEG —
     * the decoder's image of the first frame, its row buffers and the 8-bit RGB raster; DICOM — the file's bytes
     * (read whole), the pixel data of every frame, and one frame as a 16-bit grey or 8-bit RGB raster.
     *
     * @param fileBytes the size of the stored file
     */
    public static long ofDecode(ImageHeader header, long fileBytes) {
        long raster = ImageHeader.saturatingMultiply(header.pixels(), 3);
        if (header.format() == ImageFormat.DICOM) {
            return add(add(fileBytes, header.decodedBytes()), raster);
        }
        long rows = ImageHeader.saturatingMultiply(2 * header.width(), header.bytesPerPixel());
        return add(add(header.frameBytes(), rows), raster);
    }

    /** A full decode, then one more raster of the same size: the output of a filter chain, or of an encoder. */
    public static long ofRender(ImageHeader header, long fileBytes) {
        return add(ofDecode(header, fileBytes), ImageHeader.saturatingMultiply(header.pixels(), 3));
    }

    /** The check that a GIF, PNG or JPEG upload decodes ({@link DecodeCheck}): bounded whatever the image's size. */
    public static long ofCheck(ImageHeader header) {
        return DecodeCheck.memoryBytes(header);
    }

    private static long add(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
