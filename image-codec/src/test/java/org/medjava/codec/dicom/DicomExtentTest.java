package org.medjava.codec.dicom;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.medjava.codec.ImageDecodeException;

class DicomExtentTest {

    @ParameterizedTest
    @ValueSource(strings = {"CT_small.dcm", "MR_small.dcm", "MR_small_implicit.dcm", "MR_small_bigendian.dcm",
            "ExplVR_BigEnd.dcm", "MR_small_RLE.dcm", "JPEG2000.dcm", "JPEG-lossy.dcm", "SC_rgb_rle.dcm",
            "SC_rgb_small_odd.dcm", "image_dfl.dcm", "badVR.dcm", "no_meta.dcm", "rtdose.dcm",
            "MR_small_jpeg_ls_lossless.dcm", "SC_rgb_jpeg_dcmtk.dcm"})
    void wholeSamplesPass(String name) {
        byte[] file = DicomCodecTest.bytes(name);
        assertThatCode(() -> DicomExtent.requireWhole(file)).doesNotThrowAnyException();
    }

    @Test
    void aFileCutInsideItsTrailingPaddingIsTruncated() {
        byte[] file = DicomCodecTest.bytes("CT_small.dcm"); // ends with (FFFC,FFFC) OB of 126 bytes
        assertThatThrownBy(() -> DicomExtent.requireWhole(Arrays.copyOf(file, file.length - 50)))
                .isInstanceOf(ImageDecodeException.class).hasMessageContaining("truncated")
                .hasMessageContaining("(FFFC,FFFC)");
    }

    @Test
    void aFileCutInsideAnElementHeaderIsTruncated() {
        byte[] file = DicomCodecTest.bytes("CT_small.dcm");
        assertThatThrownBy(() -> DicomExtent.requireWhole(Arrays.copyOf(file, file.length - 132)))
                .isInstanceOf(ImageDecodeException.class).hasMessageContaining("inside the header");
    }

    @Test
    void anEncapsulatedPixelDataCutBeforeItsDelimiterIsTruncated() {
        byte[] file = DicomCodecTest.bytes("MR_small_RLE.dcm");
        int end = file.length;
        // find the sequence delimitation item (FFFE,E0DD) that closes the encapsulated pixel data
        for (int i = file.length - 8; i > 0; i--) {
            if ((file[i] & 0xFF) == 0xFE && (file[i + 1] & 0xFF) == 0xFF && (file[i + 2] & 0xFF) == 0xDD
                    && (file[i + 3] & 0xFF) == 0xE0) {
                end = i;
                break;
            }
        }
        byte[] cut = Arrays.copyOf(file, end);
        assertThatThrownBy(() -> DicomExtent.requireWhole(cut)).isInstanceOf(ImageDecodeException.class)
                .hasMessageContaining("were closed");
    }

    @Test
    void deepNestingIsWalkedWithoutRecursionAndUnclosedNestingIsTruncated() throws Exception {
        byte[] closed = nested(20_000, true);
        assertThatCode(() -> DicomExtent.requireWhole(closed)).doesNotThrowAnyException();
        byte[] open = nested(20_000, false);
        assertThatThrownBy(() -> DicomExtent.requireWhole(open)).isInstanceOf(ImageDecodeException.class)
                .hasMessageContaining("40000 sequence(s) or item(s)");
    }

    @Test
    void filesWithoutThePart10PreambleAreLeftToTheParser() {
        assertThatCode(() -> DicomExtent.requireWhole(new byte[10])).doesNotThrowAnyException();
    }

    /** Part 10, explicit VR little endian: {@code depth} sequences of undefined length, each in an item. */
    private static byte[] nested(int depth, boolean closed) throws java.io.IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(new byte[128]);
        out.write("DICM".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        byte[] ts = "1.2.840.10008.1.2.1\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        out.write(new byte[] {2, 0, 0x10, 0, 'U', 'I', (byte) ts.length, 0});
        out.write(ts);
        byte[] open = {0x08, 0x00, 0x15, 0x11, 'S', 'Q', 0, 0, -1, -1, -1, -1, // (0008,1115) SQ undefined
                (byte) 0xFE, (byte) 0xFF, 0x00, (byte) 0xE0, -1, -1, -1, -1}; // item, undefined
        byte[] close = {(byte) 0xFE, (byte) 0xFF, 0x0D, (byte) 0xE0, 0, 0, 0, 0, // item delimiter
                (byte) 0xFE, (byte) 0xFF, (byte) 0xDD, (byte) 0xE0, 0, 0, 0, 0}; // sequence delimiter
        for (int i = 0; i < depth; i++) {
            out.write(open);
        }
        if (closed) {
            for (int i = 0; i < depth; i++) {
                out.write(close);
            }
        }
        return out.toByteArray();
    }
}
