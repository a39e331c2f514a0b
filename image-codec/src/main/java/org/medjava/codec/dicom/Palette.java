package org.medjava.codec.dicom;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.TagFromName;
import java.awt.image.BufferedImage;
import org.medjava.codec.ImageDecodeException;

/**
 * The Red/Green/Blue Palette Color Lookup Tables of a PALETTE COLOR image (PS3.3 C.7.6.3.1.5), as 8-bit: plain
 * tables, or segmented ones (C.7.9.2: discrete, linear and indirect segments) expanded as pydicom expands them.
 */
final class Palette {
    private final int first;
    private final byte[][] tables;

    private Palette(int first, byte[][] tables) {
        this.first = first;
        this.tables = tables;
    }

    static Palette of(AttributeList list) throws ImageDecodeException {
        AttributeTag[][] tags = {
            {TagFromName.RedPaletteColorLookupTableDescriptor, TagFromName.RedPaletteColorLookupTableData},
            {TagFromName.GreenPaletteColorLookupTableDescriptor, TagFromName.GreenPaletteColorLookupTableData},
            {TagFromName.BluePaletteColorLookupTableDescriptor, TagFromName.BluePaletteColorLookupTableData}};
        byte[][] tables = new byte[3][];
        int first = 0;
        try {
            for (int c = 0; c < 3; c++) {
                Attribute descriptor = list.get(tags[c][0]);
                Attribute segmented = list.get(new AttributeTag(0x0028, 0x1221 + c));
                Attribute data = list.get(tags[c][1]);
                if (descriptor != null && descriptor.getVM() >= 3 && segmented != null) {
                    int[] d = descriptor.getIntegerValues();
                    first = d[1];
                    tables[c] = segmented(segmented, d[2]);
                    continue;
                }
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

    /**
     * A segmented table expanded (PS3.3 C.7.9.2), to 8 bits. As in pydicom, the data's units are words for 16-bit
     * entries and bytes for 8-bit ones, an indirect segment's offset counts those units (least significant word
     * first), and a linear segment's values are rounded half to even.
     */
    private static byte[] segmented(Attribute data, int bits) throws DicomException, ImageDecodeException {
        int[] units;
        short[] words = data.getShortValues();
        if (bits == 8) {
            units = new int[2 * words.length];
            for (int i = 0; i < words.length; i++) {
                units[2 * i] = words[i] & 0xFF;
                units[2 * i + 1] = (words[i] & 0xFFFF) >>> 8;
            }
        } else {
            units = new int[words.length];
            for (int i = 0; i < words.length; i++) {
                units[i] = words[i] & 0xFFFF;
            }
        }
        java.util.List<Integer> lut = new java.util.ArrayList<>();
        expand(units, 0, -1, null, lut, 0);
        if (lut.isEmpty()) {
            throw new ImageDecodeException("DICOM segmented palette colour lookup table is empty");
        }
        byte[] table = new byte[lut.size()];
        for (int i = 0; i < table.length; i++) {
            table[i] = (byte) (bits == 8 ? lut.get(i) : lut.get(i) >>> 8);
        }
        return table;
    }

    private static void expand(int[] data, int start, int segments, Integer lastValue, java.util.List<Integer> lut,
            int depth) throws ImageDecodeException {
        if (depth > 4) {
            throw new ImageDecodeException("DICOM segmented palette colour lookup table nests indirect segments too "
                    + "deeply");
        }
        int offset = start;
        int read = 0;
        while (offset + 1 < data.length) {
            int opcode = data[offset];
            int length = data[offset + 1];
            offset += 2;
            if (lut.size() + length > 65536) {
                throw new ImageDecodeException("DICOM segmented palette colour lookup table expands past 65536 "
                        + "entries");
            }
            switch (opcode) {
                case 0 -> {
                    for (int i = 0; i < length && offset < data.length; i++) {
                        lut.add(data[offset++]);
                    }
                }
                case 1 -> {
                    Integer y0 = !lut.isEmpty() ? lut.get(lut.size() - 1) : lastValue;
                    if (y0 == null || offset >= data.length) {
                        throw new ImageDecodeException("DICOM segmented palette: a linear segment has no start value");
                    }
                    int y1 = data[offset++];
                    if (y0 == y1) {
                        for (int i = 0; i < length; i++) {
                            lut.add(y1);
                        }
                    } else {
                        double step = (y1 - y0) / (double) length;
                        double from = y0 + step;
                        double delta = length > 1 ? (y1 - from) / (length - 1) : 0;
                        for (int i = 0; i < length; i++) {
                            lut.add(i == length - 1 ? y1 : (int) Math.rint(i * delta + from)); // numpy linspace
                        }
                    }
                }
                case 2 -> {
                    if (lut.isEmpty() || offset + 1 >= data.length) {
                        throw new ImageDecodeException("DICOM segmented palette: an indirect segment comes first");
                    }
                    int target = data[offset] | data[offset + 1] << 16;
                    offset += 2;
                    if (target < 0 || target >= data.length) {
                        throw new ImageDecodeException("DICOM segmented palette: an indirect segment points outside"
                                + " the table");
                    }
                    expand(data, target, length, lut.get(lut.size() - 1), lut, depth + 1);
                }
                default -> throw new ImageDecodeException("DICOM segmented palette: unknown segment type " + opcode);
            }
            read++;
            if (read == segments) {
                return;
            }
        }
    }

    /** Looks up every index; indices below the first mapped value take entry 0, above the last the last entry. */
    byte[] apply(BufferedImage image, int bitsStored) {
        return apply(DicomCodec.greyValues(image, bitsStored, false));
    }

    /** As {@link #apply(BufferedImage, int)}, for indices already read. */
    byte[] apply(int[] indices) {
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
