package org.medjava.store.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Where network objects go, and Patient IDs made safe as directory names. */
class ArchivePathTest {

    @Test
    void pathFromPatientStudySeriesAndInstance() {
        assertThat(ArchivePath.of("PAT-1", "1.2.3", "1.2.3.4", "1.2.3.4.5").relative())
                .isEqualTo("dicom/PAT-1/1.2.3/1.2.3.4/1.2.3.4.5.dcm");
    }

    @Test
    void patientIdsBecomeSafeDirectoryNames() {
        assertThat(ArchivePath.directoryName("../etc")).isEqualTo("_._etc");
        assertThat(ArchivePath.directoryName(".hidden")).isEqualTo("_hidden");
        assertThat(ArchivePath.directoryName("a/b\\c d")).isEqualTo("a_b_c_d");
        assertThat(ArchivePath.directoryName("Müller^1.0")).isEqualTo("M_ller^1.0");
        assertThat(ArchivePath.directoryName("  ")).isEqualTo(ArchivePath.NO_PATIENT_ID);
        assertThat(ArchivePath.directoryName(null)).isEqualTo(ArchivePath.NO_PATIENT_ID);
        assertThat(ArchivePath.directoryName("x".repeat(100))).hasSize(64);
    }

    @Test
    void uidsMustBeUids() {
        assertThatThrownBy(() -> ArchivePath.of("P", "1.2.3", "../x", "1.2")).isInstanceOf(
                IllegalArgumentException.class);
        assertThat(ReceivedHeader.isUid("1.2.840.10008.1.2")).isTrue();
        assertThat(ReceivedHeader.isUid("1.02.3")).isFalse();
        assertThat(ReceivedHeader.isUid("1..2")).isFalse();
        assertThat(ReceivedHeader.isUid("1." + "2".repeat(70))).isFalse();
    }
}
