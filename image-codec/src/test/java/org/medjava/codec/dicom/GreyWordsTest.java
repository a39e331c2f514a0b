package org.medjava.codec.dicom;

import static org.assertj.core.api.Assertions.assertThat;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.display.SourceImage;
import org.junit.jupiter.api.Test;
import org.medjava.codec.testsupport.SyntheticDicom;

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
        SyntheticDicom dicom = SyntheticDicom.of(ts, rows, columns).bits(16, bitsStored).frames(frames)
                .seed(31L * bitsStored + frames + (signed ? 7 : 0));
        if (signed) {
            dicom.signed();
        }
        if (slope != null) {
            dicom.rescale(slope, "3");
        }
        return dicom.bytes();
    }
}
