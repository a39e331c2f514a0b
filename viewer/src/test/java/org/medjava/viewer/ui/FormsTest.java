package org.medjava.viewer.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.medjava.codec.dicom.ArchiveLayout;
import org.medjava.codec.dicom.Uids;
import org.medjava.viewer.image.ImageOrigin;
import org.medjava.viewer.image.OpenedImage;
import org.medjava.viewer.image.Samples;
import org.medjava.viewer.image.UploadEncoder;
import org.medjava.viewer.image.UploadFormat;
import org.medjava.viewer.model.FilterChain;
import org.medjava.viewer.model.RecentServers;

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
    void theLoginOffersTheGivenUserElseTheLastOneOfThatServerElseTheSystemUser() {
        var recent = List.of(new RecentServers.Server("http://other:8080", "olga"),
                new RecentServers.Server("http://localhost:8080/", "rita"));
        assertThat(ConnectDialog.defaultUser(recent, "http://localhost:8080", "admin", "os")).isEqualTo("admin");
        assertThat(ConnectDialog.defaultUser(recent, "localhost:8080", null, "os")).isEqualTo("rita");
        assertThat(ConnectDialog.defaultUser(recent, "http://third:8080", " ", "os")).isEqualTo("os");
        assertThat(ConnectDialog.defaultUser(List.of(), "not a url", null, "os")).isEqualTo("os");
    }

    @Test
    void rendersGoUnderDerivedAndDerivedDicomWhereTheStoreFilesNetworkObjects() throws Exception {
        OpenedImage ct = Samples.open("dicom/CT_small.dcm");
        var store = new ImageOrigin.StoreFile("http://s", "samples/dicom/CT_small.dcm", "\"e\"");
        var snapshot = new UploadEncoder.Snapshot(null, null, ct, FilterChain.EMPTY, ct.dicom().defaultWindow()
                .orElseThrow());
        String sop = Uids.newUid();
        var a = ct.dicom().attributes();
        UploadTarget.Place dicom = UploadTarget.suggest(store, snapshot, UploadFormat.DICOM, sop);
        assertThat(dicom.directory() + dicom.name()).isEqualTo(ArchiveLayout.path(a.patientId(),
                a.studyInstanceUid(), UploadEncoder.derivedSeriesUid(snapshot), sop));
        assertThat(dicom.sopInstanceUid()).isEqualTo(sop);
        UploadTarget.Place png = UploadTarget.suggest(store, snapshot, UploadFormat.PNG, sop);
        assertThat(png).isEqualTo(new UploadTarget.Place("derived/samples/dicom/", "CT_small.png", null));
        var derivedAlready = new ImageOrigin.StoreFile("http://s", "derived/x/CT_small.png", "\"e\"");
        assertThat(UploadTarget.suggest(derivedAlready, snapshot, UploadFormat.GIF, sop).directory())
                .isEqualTo("derived/x/");

        OpenedImage gif = Samples.open("gif/ct-small.gif");
        var local = new UploadEncoder.Snapshot(null, null, gif, FilterChain.EMPTY, null);
        assertThat(UploadTarget.suggest(gif.origin(), local, UploadFormat.DICOM, sop))
                .isEqualTo(new UploadTarget.Place("derived/", "ct-small.dcm", sop));
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
