package org.medjava.store.dicomweb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Content-Type and Accept headers with the parameters DICOMweb uses. */
class MediaTypeParamsTest {

    @Test
    void parsesTypeAndQuotedParameters() {
        MediaTypeParams t = MediaTypeParams.parse("Multipart/Related; type=\"application/dicom\"; "
                + "boundary=\"a;b,c\"; transfer-syntax=*");
        assertThat(t.type()).isEqualTo("multipart/related");
        assertThat(t.param("type")).isEqualTo("application/dicom");
        assertThat(t.param("boundary")).isEqualTo("a;b,c");
        assertThat(t.param("transfer-syntax")).isEqualTo("*");
    }

    @Test
    void acceptHeadersSplitIntoRangesOutsideQuotes() {
        List<MediaTypeParams> ranges = MediaTypeParams.parseAccept(
                "multipart/related; type=\"application/dicom\"; transfer-syntax=1.2.840.10008.1.2.1, */*;q=0.1");
        assertThat(ranges).hasSize(2);
        assertThat(ranges.get(0).param("transfer-syntax")).isEqualTo("1.2.840.10008.1.2.1");
        assertThat(ranges.get(1).isWildcard()).isTrue();
        assertThat(MediaTypeParams.parseAccept(null)).singleElement().matches(MediaTypeParams::isWildcard);
        assertThat(MediaTypeParams.parse("image/*").matches("image/png")).isTrue();
        assertThat(MediaTypeParams.parse("image/*").matches("application/dicom")).isFalse();
    }
}
