package org.medjava.store.index;

import java.util.Map;
import java.util.Set;

/**
 * Matching keys at the study level (patient keys included, as in the patient-root and study-root models):
 * {@link #KEYWORDS}. {@code ModalitiesInStudy} matches a study having any series whose Modality matches.
 */
public final class StudyQuery extends DicomQuery<StudyQuery> {
    public static final Set<String> KEYWORDS = Set.of("PatientID", "IssuerOfPatientID", "PatientName",
            "PatientBirthDate", "PatientSex", "StudyInstanceUID", "StudyDate", "StudyTime", "AccessionNumber",
            "StudyID", "StudyDescription", "ReferringPhysicianName", "ModalitiesInStudy");

    private StudyQuery(Map<String, String> keys, boolean fuzzy, int offset, int limit) {
        super(KEYWORDS, keys, fuzzy, offset, limit);
    }

    /** Every study. */
    public static StudyQuery all() {
        return new StudyQuery(Map.of(), false, 0, 0);
    }

    @Override
    StudyQuery copy(Map<String, String> keys, boolean fuzzy, int offset, int limit) {
        return new StudyQuery(keys, fuzzy, offset, limit);
    }

    public StudyQuery patientId(String key) {
        return with("PatientID", key);
    }

    public StudyQuery patientName(String key) {
        return with("PatientName", key);
    }

    public StudyQuery studyInstanceUid(String key) {
        return with("StudyInstanceUID", key);
    }

    public StudyQuery studyDate(String key) {
        return with("StudyDate", key);
    }

    public StudyQuery accessionNumber(String key) {
        return with("AccessionNumber", key);
    }

    public StudyQuery studyDescription(String key) {
        return with("StudyDescription", key);
    }

    public StudyQuery modalitiesInStudy(String key) {
        return with("ModalitiesInStudy", key);
    }
}
