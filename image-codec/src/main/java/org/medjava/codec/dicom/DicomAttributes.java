package org.medjava.codec.dicom;

/**
 * The identifying attributes of a DICOM object (empty strings when absent).
 *
 * @param transferSyntaxUid from the file meta information
 */
public record DicomAttributes(String patientId, String patientName, String studyInstanceUid,
        String seriesInstanceUid, String sopInstanceUid, String sopClassUid, String modality,
        String transferSyntaxUid) {
}
