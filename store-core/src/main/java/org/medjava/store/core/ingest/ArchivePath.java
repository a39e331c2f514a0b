package org.medjava.store.core.ingest;

import org.medjava.codec.dicom.ArchiveLayout;
import org.medjava.store.core.model.StorePath;

/**
 * Where an object received over the network is kept:
 * {@code dicom/{PatientID}/{StudyInstanceUID}/{SeriesInstanceUID}/{SOPInstanceUID}.dcm} ({@link ArchiveLayout}, which
 * the viewer uses too). The UIDs are checked to be UIDs; the Patient ID is made a safe directory name. The index keeps
 * the real values.
 */
public final class ArchivePath {
    public static final String ROOT = ArchiveLayout.ROOT;
    static final String NO_PATIENT_ID = ArchiveLayout.NO_PATIENT_ID;

    private ArchivePath() {
    }

    static StorePath of(ReceivedHeader h) {
        return of(h.patientId(), h.studyInstanceUid(), h.seriesInstanceUid(), h.sopInstanceUid());
    }

    public static StorePath of(String patientId, String studyUid, String seriesUid, String sopUid) {
        for (String uid : new String[] {studyUid, seriesUid, sopUid}) {
            if (!ReceivedHeader.isUid(uid)) {
                throw new IllegalArgumentException("not a UID: " + uid);
            }
        }
        return StorePath.parse(ArchiveLayout.path(patientId, studyUid, seriesUid, sopUid));
    }

    /** A Patient ID as a directory name that the store's path rules accept (the layout shared with the viewer). */
    static String directoryName(String patientId) {
        return ArchiveLayout.directoryName(patientId);
    }
}
