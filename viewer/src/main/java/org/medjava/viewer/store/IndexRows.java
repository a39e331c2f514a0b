package org.medjava.viewer.store;

import java.util.List;

/** Rows of the store's DICOM index, as the DICOM view groups them: patient → study → series → instance. */
public final class IndexRows {
    private IndexRows() {
    }

    public record Study(String patientId, String patientName, String studyInstanceUid, String studyDate,
                        String studyDescription, List<String> modalities, long series, long instances) {
    }

    public record Series(String seriesInstanceUid, String modality, Integer seriesNumber, String seriesDescription,
                         long instances) {
    }

    /** @param path the store path of the file, e.g. "samples/dicom/CT_small.dcm" */
    public record Instance(String path, Integer instanceNumber, String sopInstanceUid, Integer columns, Integer rows,
                           Integer frames) {
    }
}
