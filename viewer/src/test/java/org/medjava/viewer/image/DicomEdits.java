package org.medjava.viewer.image;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.TransferSyntax;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.Map;

/**
 * Test data: a DICOM file with some string elements set or replaced (by dictionary keyword), e.g. a synthetic CT
 * given a Pixel Spacing or another Modality; written again as Explicit VR Little Endian by PixelMed.
 */
public final class DicomEdits {
    private DicomEdits() {
    }

    public static byte[] with(byte[] file, Map<String, String> values) {
        try {
            AttributeList list = new AttributeList();
            try (DicomInputStream in = new DicomInputStream(new ByteArrayInputStream(file))) {
                list.read(in);
            }
            for (Map.Entry<String, String> e : values.entrySet()) {
                AttributeTag tag = AttributeList.getDictionary().getTagFromName(e.getKey());
                if (tag == null) {
                    throw new IllegalArgumentException("no DICOM keyword " + e.getKey());
                }
                list.remove(tag);
                var a = AttributeList.getDictionary().getValueRepresentationFromTag(tag);
                var attribute = com.pixelmed.dicom.AttributeFactory.newAttribute(tag, a);
                for (String v : e.getValue().split("\\\\")) {
                    attribute.addValue(v);
                }
                list.put(attribute);
            }
            list.removeGroupLengthAttributes();
            ByteArrayOutputStream out = new ByteArrayOutputStream(file.length + 256);
            list.write(out, TransferSyntax.ExplicitVRLittleEndian, true, true);
            return out.toByteArray();
        } catch (Exception e) {
            throw new IllegalStateException("cannot edit the test DICOM: " + e.getMessage(), e);
        }
    }
}
