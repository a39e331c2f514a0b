package org.medjava.store.core.testsupport;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomImage;

/**
 * What a DICOM file's pixels decode to with PixelMed (image-codec's DicomCodec), frame after frame: grey frames as
 * their stored values, colour frames as RGB. Equal for two files that show the same image, whatever their transfer
 * syntax, compression, photometric interpretation (YBR or RGB) or planar configuration.
 */
public final class DecodedPixels {

    private DecodedPixels() {
    }

    public static byte[] of(Path file) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int frames = 1;
        for (int frame = 0; frame < frames; frame++) {
            DicomImage image = DicomCodec.read(file, frame, Long.MAX_VALUE);
            frames = image.frameCount();
            if (image.isGrey()) {
                for (int v : image.storedValues()) {
                    out.write(v >>> 24);
                    out.write(v >>> 16);
                    out.write(v >>> 8);
                    out.write(v);
                }
            } else {
                out.write(image.render().rgb());
            }
        }
        return out.toByteArray();
    }
}
