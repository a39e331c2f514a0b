package org.medjava.codec.dicom;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class DicomElementsTest {

    private static DicomImage ct() throws IOException {
        return DicomCodecTest.read("CT_small.dcm");
    }

    @Test
    void listsTheHeaderInTagOrderWithKeywordsAndValues() throws IOException {
        var elements = DicomElements.of(ct());
        assertThat(elements).extracting(DicomElements.Element::keyword).contains("Modality", "Rows", "PatientID");
        assertThat(elements).filteredOn(e -> e.keyword().equals("Rows")).singleElement()
                .satisfies(e -> {
                    assertThat(e.tag()).isEqualTo("(0028,0010)");
                    assertThat(e.vr()).isEqualTo("US");
                    assertThat(e.value()).isEqualTo("128");
                });
        assertThat(elements).extracting(DicomElements.Element::tag).isSorted();
        assertThat(elements).extracting(DicomElements.Element::keyword).doesNotContain("PixelData");
    }

    @Test
    void readsSingleValuesByKeyword() throws IOException {
        DicomImage image = ct();
        assertThat(DicomElements.value(image, "Modality")).isEqualTo("CT");
        assertThat(DicomElements.value(image, "NoSuchKeyword")).isEmpty();
    }
}
