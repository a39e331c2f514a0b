package org.medjava.store.core.repo;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.TagFromName;
import java.util.Set;
import org.medjava.filter.Raster;

/**
 * Tells, from a data set parsed already, whether its uncompressed pixel data would decode, without decoding them: for
 * the common layouts (MONOCHROME1/2 at 8 or 16 bits, RGB at 8 bits) in an uncompressed transfer syntax, decoding
 * proves nothing beyond what is checked here — the image attributes are numbers in range and the pixel data hold
 * every sample of every frame, after which any bits are valid pixel values. It answers yes only when image-codec's
 * DicomCodec.read would succeed; for anything else or anything doubtful it answers no and the caller decodes with
 * DicomCodec, whose verdict stands. NativePixelCheckTest holds it to DicomCodec on every sample and on damaged ones.
 */
final class NativePixelCheck {

    private static final Set<String> NATIVE = Set.of("1.2.840.10008.1.2", "1.2.840.10008.1.2.1",
            "1.2.840.10008.1.2.1.99", "1.2.840.10008.1.2.2");

    private NativePixelCheck() {
    }

    /** @param transferSyntax the data set's Transfer Syntax UID */
    static boolean surelyDecodes(AttributeList list, String transferSyntax, long maxPixels) {
        if (!NATIVE.contains(transferSyntax)) {
            return false;
        }
        Attribute pixelData = list.get(TagFromName.PixelData);
        Integer rows = integer(list, TagFromName.Rows);
        Integer columns = integer(list, TagFromName.Columns);
        Integer frames = integer(list, TagFromName.NumberOfFrames, 1);
        Integer samples = integer(list, TagFromName.SamplesPerPixel, 1);
        Integer bitsAllocated = integer(list, TagFromName.BitsAllocated);
        Integer bitsStored = bitsAllocated == null ? null : integer(list, TagFromName.BitsStored, bitsAllocated);
        Integer pixelRepresentation = integer(list, TagFromName.PixelRepresentation, 0);
        Integer planar = integer(list, TagFromName.PlanarConfiguration, 0);
        if (pixelData == null || rows == null || columns == null || frames == null || samples == null
                || bitsAllocated == null || bitsStored == null || pixelRepresentation == null || planar == null) {
            return false;
        }
        String photometric = Attribute.getSingleStringValueOrEmptyString(list, TagFromName.PhotometricInterpretation)
                .trim();
        String vr = pixelData.getVRAsString();
        boolean grey = (photometric.equals("MONOCHROME1") || photometric.equals("MONOCHROME2")) && samples == 1
                && (bitsAllocated == 16 && "OW".equals(vr)
                || bitsAllocated == 8 && ("OB".equals(vr) || "OW".equals(vr)));
        boolean rgb = photometric.equals("RGB") && samples == 3 && bitsAllocated == 8 && (planar == 0 || planar == 1)
                && ("OB".equals(vr) || "OW".equals(vr));
        if (!grey && !rgb) {
            return false;
        }
        long pixels = (long) rows * columns;
        if (rows < 1 || columns < 1 || pixels > Math.min(maxPixels, Raster.MAX_PIXELS) || frames < 1
                || bitsStored < 1 || bitsStored > bitsAllocated || (pixelRepresentation != 0 && pixelRepresentation != 1)
                || !isNumberOrAbsent(list, TagFromName.RescaleSlope)
                || !isNumberOrAbsent(list, TagFromName.RescaleIntercept)) {
            return false;
        }
        long needed = (pixels * samples * frames * bitsAllocated + 7) / 8;
        return (pixelData.getVL() & 0xFFFFFFFFL) >= needed;
    }

    private static Integer integer(AttributeList list, AttributeTag tag) {
        return integer(list, tag, null);
    }

    /** The value as DicomCodec reads it: {@code absent} when missing or empty, null when not a number. */
    private static Integer integer(AttributeList list, AttributeTag tag, Integer absent) {
        Attribute a = list.get(tag);
        if (a == null || a.getVM() == 0) {
            return absent;
        }
        String text = a.getSingleStringValueOrEmptyString().trim();
        if (text.isEmpty()) {
            return absent;
        }
        try {
            return Integer.valueOf(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static boolean isNumberOrAbsent(AttributeList list, AttributeTag tag) {
        String text = Attribute.getSingleStringValueOrEmptyString(list, tag).trim();
        try {
            if (!text.isEmpty()) {
                Double.parseDouble(text);
            }
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
