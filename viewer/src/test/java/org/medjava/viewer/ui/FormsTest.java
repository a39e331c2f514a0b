package org.medjava.viewer.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.medjava.viewer.image.UploadFormat;

/** The checks behind the dialogs' fields. */
class FormsTest {

    @Test
    void uploadPathsAreJoinedAndChecked() {
        assertThat(UploadTarget.join("/samples/dicom", "x.dcm")).isEqualTo("samples/dicom/x.dcm");
        assertThat(UploadTarget.join("", "x.png")).isEqualTo("x.png");
        assertThatThrownBy(() -> UploadTarget.join("a/../b", "x.png")).hasMessageContaining("not a valid");
        assertThatThrownBy(() -> UploadTarget.join("a", ".hidden")).hasMessageContaining("must not");
        assertThatThrownBy(() -> UploadTarget.join("a", "")).hasMessageContaining("must not be empty");
    }

    @Test
    void defaultUploadNamesSayWhetherTheImageWasFiltered() {
        assertThat(UploadTarget.defaultName("CT_small.dcm", true, UploadFormat.PNG)).isEqualTo("CT_small-filtered.png");
        assertThat(UploadTarget.defaultName("scan", false, UploadFormat.DICOM)).isEqualTo("scan.dcm");
        assertThat(UploadTarget.withExtension("a.b.png", UploadFormat.GIF)).isEqualTo("a.b.gif");
    }

    @Test
    void aPatientSearchQueriesByNameAndById() {
        var queries = DicomSearchPanel.queries("smith", "20040101-", "CT");
        assertThat(queries).containsExactly(
                Map.of("StudyDate", "20040101-", "ModalitiesInStudy", "CT", "PatientName", "*smith*",
                        "fuzzymatching", "true"),
                Map.of("StudyDate", "20040101-", "ModalitiesInStudy", "CT", "PatientID", "*smith*"));
        assertThat(DicomSearchPanel.queries("", "", "any")).containsExactly(Map.of());
        assertThat(DicomSearchPanel.queries("Sm?th*", "", "any").get(1)).containsEntry("PatientID", "Sm?th*");
        assertThatThrownBy(() -> DicomSearchPanel.queries("", "2004", "any")).hasMessageContaining("YYYYMMDD");
    }
}
