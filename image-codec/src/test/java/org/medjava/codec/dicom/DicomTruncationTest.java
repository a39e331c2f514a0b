package org.medjava.codec.dicom;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.medjava.codec.ImageDecodeException;

/** A file cut short where PixelMed's reader stops quietly is refused by the pre-scan (issue 15, item 6). */
class DicomTruncationTest {

    @ParameterizedTest
    @ValueSource(strings = {"CT_small.dcm", "MR_small.dcm", "MR_small_implicit.dcm", "MR_small_bigendian.dcm",
            "ExplVR_BigEnd.dcm", "MR_small_RLE.dcm", "JPEG2000.dcm", "JPEG-lossy.dcm", "SC_rgb_rle.dcm",
            "SC_rgb_small_odd.dcm", "image_dfl.dcm", "badVR.dcm", "rtdose.dcm",
            "MR_small_jpeg_ls_lossless.dcm", "SC_rgb_jpeg_dcmtk.dcm"})
    void wholeSamplesPass(String name) {
        byte[] file = DicomCodecTest.bytes(name);
        assertThatCode(() -> DicomPreScan.checkPart10(file)).doesNotThrowAnyException();
    }

    @Test
    void aFileCutInsideItsTrailingPaddingIsTruncated() {
        byte[] file = DicomCodecTest.bytes("CT_small.dcm"); // ends with (FFFC,FFFC) OB of 126 bytes
        assertThatThrownBy(() -> DicomPreScan.checkPart10(Arrays.copyOf(file, file.length - 50)))
                .isInstanceOf(ImageDecodeException.class);
    }

    @Test
    void aFileCutInsideAnElementHeaderIsTruncated() {
        byte[] file = DicomCodecTest.bytes("CT_small.dcm");
        assertThatThrownBy(() -> DicomPreScan.checkPart10(Arrays.copyOf(file, file.length - 132)))
                .isInstanceOf(ImageDecodeException.class);
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
        assertThatThrownBy(() -> DicomPreScan.checkPart10(cut)).isInstanceOf(ImageDecodeException.class);
    }
}
