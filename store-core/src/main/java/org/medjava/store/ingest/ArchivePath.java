package org.medjava.store.ingest;

import org.medjava.store.repo.StorePath;

/**
 * Where an object received over the network is kept:
 * {@code dicom/{PatientID}/{StudyInstanceUID}/{SeriesInstanceUID}/{SOPInstanceUID}.dcm}. The UIDs are checked to be
 * UIDs; the Patient ID is made a safe directory name (characters other than letters, digits, {@code . _ - ^ +}
 * become {@code _}, a leading dot too; an empty one is {@value #NO_PATIENT_ID}). The index keeps the real values.
 */
public final class ArchivePath {
    public static final String ROOT = "dicom";
    static final String NO_PATIENT_ID = "no-patient-id";
    private static final int MAX_NAME = 64;

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
        return StorePath.parse(ROOT + "/" + directoryName(patientId) + "/" + studyUid + "/" + seriesUid + "/"
                + sopUid + ".dcm");
    }

    /** A Patient ID as a directory name that the store's path rules accept. */
    static String directoryName(String patientId) {
        String id = patientId == null ? "" : patientId.trim();
        if (id.isEmpty()) {
            return NO_PATIENT_ID;
        }
        StringBuilder sb = new StringBuilder(id.length());
        for (int i = 0; i < id.length() && sb.length() < MAX_NAME; i++) {
            char c = id.charAt(i);
            boolean safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '_' || c == '-' || c == '^' || c == '+' || (c == '.' && i > 0);
            sb.append(safe ? c : '_');
        }
        return sb.toString();
    }
}
