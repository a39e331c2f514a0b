package org.medjava.store.core.index;

import jakarta.json.bind.annotation.JsonbProperty;
import java.util.List;

/**
 * A study-level result with its patient's attributes; JSON-B writes the DICOM keywords. ModalitiesInStudy is derived
 * from the series; the counts are computed. {@link #toString()} leaves names out.
 */
public record StudySummary(
        @JsonbProperty("PatientID") String patientId,
        @JsonbProperty("IssuerOfPatientID") String issuerOfPatientId,
        @JsonbProperty("PatientName") String patientName,
        @JsonbProperty("PatientBirthDate") String patientBirthDate,
        @JsonbProperty("PatientSex") String patientSex,
        @JsonbProperty("StudyInstanceUID") String studyInstanceUid,
        @JsonbProperty("StudyDate") String studyDate,
        @JsonbProperty("StudyTime") String studyTime,
        @JsonbProperty("AccessionNumber") String accessionNumber,
        @JsonbProperty("StudyID") String studyId,
        @JsonbProperty("StudyDescription") String studyDescription,
        @JsonbProperty("ReferringPhysicianName") String referringPhysicianName,
        @JsonbProperty("ModalitiesInStudy") List<String> modalitiesInStudy,
        @JsonbProperty("NumberOfStudyRelatedSeries") long numberOfStudyRelatedSeries,
        @JsonbProperty("NumberOfStudyRelatedInstances") long numberOfStudyRelatedInstances) {

    public StudySummary {
        modalitiesInStudy = modalitiesInStudy == null ? List.of() : List.copyOf(modalitiesInStudy);
    }

    @Override
    public String toString() {
        return "StudySummary[StudyInstanceUID=" + studyInstanceUid + ", PatientID=" + patientId + ", StudyDate="
                + studyDate + ", AccessionNumber=" + accessionNumber + ", ModalitiesInStudy=" + modalitiesInStudy
                + ", series=" + numberOfStudyRelatedSeries + ", instances=" + numberOfStudyRelatedInstances + "]";
    }
}
