package org.medjava.store.core.index;

import jakarta.json.bind.annotation.JsonbProperty;

/** A patient-level result; JSON-B writes the DICOM keywords. {@link #toString()} leaves the name out. */
public record PatientSummary(
        @JsonbProperty("PatientID") String patientId,
        @JsonbProperty("IssuerOfPatientID") String issuerOfPatientId,
        @JsonbProperty("PatientName") String patientName,
        @JsonbProperty("PatientBirthDate") String patientBirthDate,
        @JsonbProperty("PatientSex") String patientSex,
        @JsonbProperty("NumberOfPatientRelatedStudies") long numberOfPatientRelatedStudies,
        @JsonbProperty("NumberOfPatientRelatedSeries") long numberOfPatientRelatedSeries,
        @JsonbProperty("NumberOfPatientRelatedInstances") long numberOfPatientRelatedInstances) {

    @Override
    public String toString() {
        return "PatientSummary[PatientID=" + patientId + ", IssuerOfPatientID=" + issuerOfPatientId
                + ", studies=" + numberOfPatientRelatedStudies + ", series=" + numberOfPatientRelatedSeries
                + ", instances=" + numberOfPatientRelatedInstances + "]";
    }
}
