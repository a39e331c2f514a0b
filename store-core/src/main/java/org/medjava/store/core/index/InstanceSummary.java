package org.medjava.store.core.index;

import jakarta.json.bind.annotation.JsonbProperty;
import java.time.Instant;

/**
 * One indexed file with the main attributes of its patient, study and series (for a directory listing); JSON-B
 * writes the DICOM keywords, plus {@code path} (the store path), {@code size} (bytes), {@code lastModified} (the
 * file's, when indexed) and {@code indexedAt}. {@link #toString()} leaves the patient name out.
 */
public record InstanceSummary(
        @JsonbProperty("path") String path,
        @JsonbProperty("PatientID") String patientId,
        @JsonbProperty("PatientName") String patientName,
        @JsonbProperty("StudyInstanceUID") String studyInstanceUid,
        @JsonbProperty("StudyDate") String studyDate,
        @JsonbProperty("StudyDescription") String studyDescription,
        @JsonbProperty("SeriesInstanceUID") String seriesInstanceUid,
        @JsonbProperty("Modality") String modality,
        @JsonbProperty("SeriesNumber") Integer seriesNumber,
        @JsonbProperty("SeriesDescription") String seriesDescription,
        @JsonbProperty("SOPInstanceUID") String sopInstanceUid,
        @JsonbProperty("SOPClassUID") String sopClassUid,
        @JsonbProperty("InstanceNumber") Integer instanceNumber,
        @JsonbProperty("TransferSyntaxUID") String transferSyntaxUid,
        @JsonbProperty("Rows") Integer rows,
        @JsonbProperty("Columns") Integer columns,
        @JsonbProperty("NumberOfFrames") Integer numberOfFrames,
        @JsonbProperty("BitsAllocated") Integer bitsAllocated,
        @JsonbProperty("PhotometricInterpretation") String photometricInterpretation,
        @JsonbProperty("size") long size,
        @JsonbProperty("lastModified") Instant lastModified,
        @JsonbProperty("indexedAt") Instant indexedAt) {

    @Override
    public String toString() {
        return "InstanceSummary[path=" + path + ", SOPInstanceUID=" + sopInstanceUid + ", SeriesInstanceUID="
                + seriesInstanceUid + ", StudyInstanceUID=" + studyInstanceUid + ", Modality=" + modality
                + ", InstanceNumber=" + instanceNumber + ", size=" + size + "]";
    }
}
