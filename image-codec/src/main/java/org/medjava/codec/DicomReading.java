package org.medjava.codec;

import java.io.IOException;
import java.io.InputStream;
import java.util.ServiceLoader;
import org.medjava.filter.Raster;

/**
 * What {@link ImageCodec#read} and {@link ImageHeader#peek} need of DICOM, which {@code org.medjava.codec.dicom}
 * provides. That package builds on this one (its exceptions, formats and headers), so this one finds it through
 * {@link ServiceLoader} in this same jar rather than naming it, and the two packages depend one way (issue 39).
 */
public interface DicomReading {

    /** Frame 0 through its default window. */
    Raster readRaster(InputStream in, long maxPixels) throws IOException;

    /**
     * {@code in} checked up to its top-level Pixel Data (nesting and lengths that would overflow PixelMed refused),
     * as a stream that gives the same bytes from the start.
     */
    InputStream checkedHeader(InputStream in) throws IOException;

    /** The implementation in this jar, looked up once, when DICOM is first read. */
    static DicomReading get() {
        return Provided.INSTANCE;
    }

    /** The holder of {@link #get}. */
    final class Provided {
        static final DicomReading INSTANCE = ServiceLoader.load(DicomReading.class, DicomReading.class.getClassLoader())
                .findFirst().orElseThrow(() -> new IllegalStateException("image-codec's jar lacks "
                        + "META-INF/services/" + DicomReading.class.getName()));

        private Provided() {
        }
    }
}
