package org.medjava.codec.dicom;

/**
 * Where the store keeps a DICOM object it received over the network, relative to its image root:
 * {@code dicom/{PatientID}/{StudyInstanceUID}/{SeriesInstanceUID}/{SOPInstanceUID}.dcm}, the Patient ID made a
 * safe directory name (characters other than letters, digits, {@code . _ - ^ +} become {@code _}, a leading dot too;
 * an empty one is {@value #NO_PATIENT_ID}; at most 64 characters). Shared by the store (which files network objects
 * there) and the viewer (which proposes the same place for a derived DICOM object it uploads over HTTP).
 */
public final class ArchiveLayout {
    public static final String ROOT = "dicom";
    public static final String NO_PATIENT_ID = "no-patient-id";
    private static final int MAX_NAME = 64;

    private ArchiveLayout() {
    }

    /**
     * The relative path of an object; the UIDs are not checked here (the store checks them, the viewer only proposes
     * paths for valid ones).
     */
    public static String path(String patientId, String studyUid, String seriesUid, String sopUid) {
        return directory(patientId, studyUid, seriesUid) + sopUid + ".dcm";
    }

    /** The series directory, ending with '/'. */
    public static String directory(String patientId, String studyUid, String seriesUid) {
        return ROOT + "/" + directoryName(patientId) + "/" + studyUid + "/" + seriesUid + "/";
    }

    /** A Patient ID as a directory name that the store's path rules accept. */
    public static String directoryName(String patientId) {
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
