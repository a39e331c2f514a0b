package org.medjava.store.core.audit;

/**
 * A stored object as the audit trail identifies it: its store path, and for DICOM its study, SOP class and instance
 * and the Patient ID (PS3.15 requires the patient as a participant object; the patient's name is never recorded).
 * The DICOM fields are null for other images.
 */
public record StoredObject(String path, String studyInstanceUid, String sopClassUid, String sopInstanceUid,
                           String patientId) {

    public static StoredObject file(String path) {
        return new StoredObject(path, null, null, null, null);
    }

    public boolean dicom() {
        return studyInstanceUid != null && !studyInstanceUid.isEmpty();
    }
}
