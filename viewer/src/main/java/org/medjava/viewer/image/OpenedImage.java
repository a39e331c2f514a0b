package org.medjava.viewer.image;

import java.io.IOException;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.ImageDecodeException;
import org.medjava.codec.ImageFormat;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.filter.Raster;

/**
 * A decoded image as read from its bytes: a DICOM frame (with the file kept for other frames and for deriving) or a
 * GIF/PNG/JPEG/PPM raster. Immutable.
 */
public final class OpenedImage {
    private final ImageOrigin origin;
    private final ImageFormat format;
    private final byte[] file;
    private final DicomImage dicom;
    private final Raster raster;

    private OpenedImage(ImageOrigin origin, ImageFormat format, byte[] file, DicomImage dicom, Raster raster) {
        this.origin = origin;
        this.format = format;
        this.file = file;
        this.dicom = dicom;
        this.raster = raster;
    }

    /** Decodes {@code bytes} by content (DICOM frame 0, or a raster format). */
    public static OpenedImage decode(ImageOrigin origin, byte[] bytes) throws IOException {
        byte[] head = java.util.Arrays.copyOf(bytes, Math.min(bytes.length, ImageFormat.SNIFF_LENGTH));
        ImageFormat format = ImageFormat.sniff(head).orElseThrow(() -> new ImageDecodeException(origin.name()
                + " is not an image the viewer reads (" + ImageFormat.describeAll() + ")"));
        if (format == ImageFormat.DICOM) {
            return new OpenedImage(origin, format, bytes, DicomCodec.read(bytes, 0, ImageCodec.DEFAULT_MAX_PIXELS),
                    null);
        }
        return new OpenedImage(origin, format, null, null, ImageCodec.read(bytes));
    }

    /** The same DICOM file at another frame (decoded again from the kept bytes). */
    public OpenedImage frame(int frame) throws IOException {
        if (dicom == null) {
            throw new IllegalStateException(origin.name() + " has no frames");
        }
        return new OpenedImage(origin, format, file, DicomCodec.read(file, frame, ImageCodec.DEFAULT_MAX_PIXELS),
                null);
    }

    public ImageOrigin origin() {
        return origin;
    }

    public ImageFormat format() {
        return format;
    }

    public boolean isDicom() {
        return dicom != null;
    }

    /** The decoded DICOM frame, or null. */
    public DicomImage dicom() {
        return dicom;
    }

    /** Whether window/level applies (a grey DICOM frame). */
    public boolean isGreyDicom() {
        return dicom != null && dicom.isGrey();
    }

    /** The whole DICOM Part 10 file, or null (the array itself). */
    public byte[] dicomFile() {
        return file;
    }

    public int width() {
        return dicom != null ? dicom.width() : raster.width();
    }

    public int height() {
        return dicom != null ? dicom.height() : raster.height();
    }

    /**
     * The image as 8-bit RGB, the input of the first filter: a grey DICOM frame through {@code window}, a colour
     * frame as it is, a raster format as decoded (the raster itself: filters never modify their source).
     */
    public Raster toRaster(org.medjava.codec.dicom.Window window) {
        if (dicom != null) {
            return dicom.render(window);
        }
        return raster;
    }
}
