package org.medjava.codec.testsupport;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeFactory;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.FileMetaInformation;
import com.pixelmed.dicom.OtherByteAttribute;
import com.pixelmed.dicom.OtherWordAttribute;
import com.pixelmed.dicom.TagFromName;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;

/**
 * A small uncompressed image as a DICOM Part 10 object, made with PixelMed for tests that compare a fast path with
 * PixelMed's reading: any transfer syntax PixelMed writes, 8 or 16 bits allocated (random pixels from a seed, bits
 * above Bits Stored set too), monochrome or RGB, one frame or several, a rescale, Pixel Data followed by trailing
 * padding or not.
 */
public final class SyntheticDicom {
    private final String transferSyntax;
    private final int rows;
    private final int columns;
    private int bitsAllocated = 16;
    private int bitsStored = 16;
    private boolean signed;
    private int samples = 1;
    private int frames = 1;
    private String slope;
    private String intercept;
    private boolean trailingPadding;
    private long seed = 1;

    private SyntheticDicom(String transferSyntax, int rows, int columns) {
        this.transferSyntax = transferSyntax;
        this.rows = rows;
        this.columns = columns;
    }

    public static SyntheticDicom of(String transferSyntax, int rows, int columns) {
        return new SyntheticDicom(transferSyntax, rows, columns);
    }

    public SyntheticDicom bits(int allocated, int stored) {
        this.bitsAllocated = allocated;
        this.bitsStored = stored;
        return this;
    }

    public SyntheticDicom signed() {
        this.signed = true;
        return this;
    }

    /** Three samples a pixel (RGB, interleaved). */
    public SyntheticDicom rgb() {
        this.samples = 3;
        return this;
    }

    public SyntheticDicom frames(int frames) {
        this.frames = frames;
        return this;
    }

    public SyntheticDicom rescale(String slope, String intercept) {
        this.slope = slope;
        this.intercept = intercept;
        return this;
    }

    /** Data Set Trailing Padding (FFFC,FFFC) after Pixel Data. */
    public SyntheticDicom trailingPadding() {
        this.trailingPadding = true;
        return this;
    }

    public SyntheticDicom seed(long seed) {
        this.seed = seed;
        return this;
    }

    public byte[] bytes() throws IOException {
        try {
            AttributeList list = new AttributeList();
            put(list, TagFromName.SOPClassUID, "1.2.840.10008.5.1.4.1.1.7");
            put(list, TagFromName.SOPInstanceUID, "1.2.3.4");
            put(list, TagFromName.StudyInstanceUID, "1.2");
            put(list, TagFromName.SeriesInstanceUID, "1.2.3");
            put(list, TagFromName.Rows, Integer.toString(rows));
            put(list, TagFromName.Columns, Integer.toString(columns));
            put(list, TagFromName.BitsAllocated, Integer.toString(bitsAllocated));
            put(list, TagFromName.BitsStored, Integer.toString(bitsStored));
            put(list, TagFromName.HighBit, Integer.toString(bitsStored - 1));
            put(list, TagFromName.SamplesPerPixel, Integer.toString(samples));
            put(list, TagFromName.PixelRepresentation, signed ? "1" : "0");
            put(list, TagFromName.PhotometricInterpretation, samples == 1 ? "MONOCHROME2" : "RGB");
            if (samples > 1) {
                put(list, TagFromName.PlanarConfiguration, "0");
            }
            if (slope != null) {
                put(list, TagFromName.RescaleSlope, slope);
                put(list, TagFromName.RescaleIntercept, intercept);
            }
            if (frames > 1) {
                put(list, TagFromName.NumberOfFrames, Integer.toString(frames));
            }
            Random random = new Random(seed);
            int values = rows * columns * samples * frames;
            Attribute pixels;
            if (bitsAllocated == 16) {
                short[] words = new short[values];
                for (int i = 0; i < values; i++) {
                    words[i] = (short) random.nextInt(65536);
                }
                pixels = new OtherWordAttribute(TagFromName.PixelData);
                pixels.setValues(words);
            } else {
                byte[] bytes = new byte[values];
                random.nextBytes(bytes);
                pixels = new OtherByteAttribute(TagFromName.PixelData);
                pixels.setValues(bytes);
            }
            list.put(pixels);
            if (trailingPadding) {
                Attribute pad = new OtherByteAttribute(new AttributeTag(0xFFFC, 0xFFFC));
                pad.setValues(new byte[8]);
                list.put(pad);
            }
            FileMetaInformation.addFileMetaInformation(list, transferSyntax, "TEST");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            list.write(out, transferSyntax, true, true);
            return out.toByteArray();
        } catch (DicomException e) {
            throw new IOException(e);
        }
    }

    private static void put(AttributeList list, AttributeTag tag, String value) throws DicomException {
        Attribute a = AttributeFactory.newAttribute(tag);
        a.addValue(value);
        list.put(a);
    }
}
