package org.medjava.store.core.testsupport;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.OtherByteAttributeMultipleCompressedFrames;
import com.pixelmed.dicom.OtherWordAttribute;
import com.pixelmed.dicom.TagFromName;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;

/**
 * The content of a file's Pixel Data, independent of how the element is encoded: native samples as little-endian
 * bytes, compressed frames concatenated. Two files with equal content here hold the same pixels in the same
 * compression, byte for byte.
 */
public final class PixelData {

    private PixelData() {
    }

    public static byte[] of(Path file) throws Exception {
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        list.read(file.toString());
        Attribute pixels = list.get(TagFromName.PixelData);
        if (pixels == null) {
            throw new AssertionError(file + " has no Pixel Data");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (pixels instanceof OtherByteAttributeMultipleCompressedFrames compressed) {
            for (byte[] frame : compressed.getFrames()) {
                out.write(frame);
            }
        } else if (pixels instanceof OtherWordAttribute words) {
            for (short s : words.getShortValues()) {
                out.write(s & 0xff);
                out.write((s >> 8) & 0xff);
            }
        } else {
            out.write(pixels.getByteValues());
        }
        return out.toByteArray();
    }
}
