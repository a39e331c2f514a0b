package org.medjava.codec.dicom;

import static org.assertj.core.api.Assertions.assertThat;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeFactory;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.FileMetaInformation;
import com.pixelmed.dicom.OtherWordAttribute;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.display.SourceImage;
import java.io.ByteArrayOutputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Native 16-bit grey frames are read from PixelMed's words directly; the values are those read back from PixelMed's
 * image of them (the way the store read them before, and still reads every other kind): unsigned and signed, Bits
 * Stored short of 16 with other bits set in the words, big and little endian, a later frame of several.
 */
class GreyWordsTest {

    @Test
    void wordsReadDirectlyAreThoseOfPixelMedsImage() throws Exception {
        same("1.2.840.10008.1.2.1", 16, false, 1, 0);
        same("1.2.840.10008.1.2.1", 12, true, 1, 0);
        same("1.2.840.10008.1.2.1", 12, false, 1, 0);
        same("1.2.840.10008.1.2.1", 16, true, 3, 2);
        same("1.2.840.10008.1.2", 10, true, 2, 1);
        same("1.2.840.10008.1.2.2", 12, true, 1, 0);
        same("1.2.840.10008.1.2.2", 16, false, 2, 1);
    }

    private static void same(String ts, int bitsStored, boolean signed, int frames, int frame) throws Exception {
        int rows = 7;
        int columns = 9;
        byte[] file = write(ts, rows, columns, bitsStored, signed, frames);
        DicomImage read = DicomCodec.read(file, frame, Long.MAX_VALUE);
        AttributeList list = DicomCodec.parse(file);
        int[] viaImage = DicomCodec.greyValues(new SourceImage(list).getBufferedImage(frame), bitsStored, signed);
        assertThat(read.storedValues()).as(ts + " " + bitsStored + (signed ? " signed" : " unsigned") + " frame "
                + frame).isEqualTo(viaImage);
        // the default window from the extremes is the one from every value
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int v : viaImage) {
            min = Math.min(min, v * -0.5 + 3);
            max = Math.max(max, v * -0.5 + 3);
        }
        assertThat(read.defaultWindow()).isPresent();
        assertThat(DicomCodec.read(write(ts, rows, columns, bitsStored, signed, frames, "-0.5"), frame,
                Long.MAX_VALUE).defaultWindow().orElseThrow()).isEqualTo(
                org.medjava.codec.dicom.Window.ofRange(min, max));
    }

    private static byte[] write(String ts, int rows, int columns, int bitsStored, boolean signed, int frames)
            throws Exception {
        return write(ts, rows, columns, bitsStored, signed, frames, null);
    }

    private static byte[] write(String ts, int rows, int columns, int bitsStored, boolean signed, int frames,
                                String slope) throws Exception {
        AttributeList list = new AttributeList();
        put(list, TagFromName.SOPClassUID, "1.2.840.10008.5.1.4.1.1.7");
        put(list, TagFromName.SOPInstanceUID, "1.2.3.4");
        put(list, TagFromName.StudyInstanceUID, "1.2");
        put(list, TagFromName.SeriesInstanceUID, "1.2.3");
        put(list, TagFromName.Rows, Integer.toString(rows));
        put(list, TagFromName.Columns, Integer.toString(columns));
        put(list, TagFromName.BitsAllocated, "16");
        put(list, TagFromName.BitsStored, Integer.toString(bitsStored));
        put(list, TagFromName.HighBit, Integer.toString(bitsStored - 1));
        put(list, TagFromName.SamplesPerPixel, "1");
        put(list, TagFromName.PixelRepresentation, signed ? "1" : "0");
        put(list, TagFromName.PhotometricInterpretation, "MONOCHROME2");
        if (slope != null) {
            put(list, TagFromName.RescaleSlope, slope);
            put(list, TagFromName.RescaleIntercept, "3");
        }
        if (frames > 1) {
            put(list, TagFromName.NumberOfFrames, Integer.toString(frames));
        }
        Random random = new Random(31L * bitsStored + frames + (signed ? 7 : 0));
        short[] words = new short[rows * columns * frames];
        for (int i = 0; i < words.length; i++) {
            words[i] = (short) random.nextInt(65536); // bits above Bits Stored set too
        }
        Attribute pixels = new OtherWordAttribute(TagFromName.PixelData);
        pixels.setValues(words);
        list.put(pixels);
        FileMetaInformation.addFileMetaInformation(list, ts, "TEST");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        list.write(out, ts, true, true);
        return out.toByteArray();
    }

    private static void put(AttributeList list, AttributeTag tag, String value) throws Exception {
        Attribute a = AttributeFactory.newAttribute(tag);
        a.addValue(value);
        list.put(a);
    }
}
