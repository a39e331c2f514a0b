package org.medjava.codec.dicom;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.TagFromName;
import java.awt.image.BufferedImage;
import org.medjava.codec.ImageDecodeException;

/** The Red/Green/Blue Palette Color Lookup Tables of a PALETTE COLOR image (PS3.3 C.7.6.3.1.5), as 8-bit. */
final class Palette {
    private final int first;
    private final byte[][] tables;

    private Palette(int first, byte[][] tables) {
        this.first = first;
        this.tables = tables;
    }

    static Palette of(AttributeList list) throws ImageDecodeException {
        if (list.get(new AttributeTag(0x0028, 0x1221)) != null) {
            throw new ImageDecodeException("DICOM segmented palette colour lookup tables are not supported");
        }
        AttributeTag[][] tags = {
            {TagFromName.RedPaletteColorLookupTableDescriptor, TagFromName.RedPaletteColorLookupTableData},
            {TagFromName.GreenPaletteColorLookupTableDescriptor, TagFromName.GreenPaletteColorLookupTableData},
            {TagFromName.BluePaletteColorLookupTableDescriptor, TagFromName.BluePaletteColorLookupTableData}};
        byte[][] tables = new byte[3][];
        int first = 0;
        try {
            for (int c = 0; c < 3; c++) {
                Attribute descriptor = list.get(tags[c][0]);
                Attribute data = list.get(tags[c][1]);
                if (descriptor == null || data == null || descriptor.getVM() < 3) {
                    throw new ImageDecodeException("DICOM PALETTE COLOR image without a complete palette colour "
                            + "lookup table");
                }
                int[] d = descriptor.getIntegerValues();
                int entries = d[0] == 0 ? 65536 : d[0] & 0xFFFF;
                first = d[1];
                int bits = d[2];
                short[] words = data.getShortValues();
                byte[] table = new byte[entries];
                boolean packed = bits == 8 && words.length * 2 >= entries && words.length < entries;
                for (int i = 0; i < entries; i++) {
                    int v;
                    if (packed) {
                        int w = words[i / 2] & 0xFFFF;
                        v = i % 2 == 0 ? w & 0xFF : w >>> 8;
                    } else if (i < words.length) {
                        v = bits == 8 ? words[i] & 0xFF : (words[i] & 0xFFFF) >>> 8;
                    } else {
                        throw new ImageDecodeException("DICOM palette colour lookup table has " + words.length
                                + " entries, its descriptor says " + entries);
                    }
                    table[i] = (byte) v;
                }
                tables[c] = table;
            }
        } catch (DicomException e) {
            throw new ImageDecodeException("DICOM palette colour lookup table unreadable: " + e.getMessage(), e);
        }
        return new Palette(first, tables);
    }

    /** Looks up every index; indices below the first mapped value take entry 0, above the last the last entry. */
    byte[] apply(BufferedImage image, int bitsStored) {
        int[] indices = DicomCodec.greyValues(image, bitsStored, false);
        byte[] rgb = new byte[3 * indices.length];
        for (int p = 0; p < indices.length; p++) {
            for (int c = 0; c < 3; c++) {
                byte[] t = tables[c];
                int i = Math.max(0, Math.min(t.length - 1, indices[p] - first));
                rgb[3 * p + c] = t[i];
            }
        }
        return rgb;
    }
}
