package org.medjava.store.core.index;

import java.util.Map;
import java.util.Set;

/** Matching keys at the patient level: {@link #KEYWORDS}. */
public final class PatientQuery extends DicomQuery<PatientQuery> {
    public static final Set<String> KEYWORDS = Set.of("PatientID", "IssuerOfPatientID", "PatientName",
            "PatientBirthDate", "PatientSex");

    private PatientQuery(Map<String, String> keys, boolean fuzzy, int offset, int limit,
                     Visibility visibility) {
        super(KEYWORDS, keys, fuzzy, offset, limit, visibility);
    }

    /** Every patient. */
    public static PatientQuery all() {
        return new PatientQuery(Map.of(), false, 0, 0, Visibility.everything());
    }

    @Override
    PatientQuery copy(Map<String, String> keys, boolean fuzzy, int offset, int limit,
                   Visibility visibility) {
        return new PatientQuery(keys, fuzzy, offset, limit, visibility);
    }

    public PatientQuery patientId(String key) {
        return with("PatientID", key);
    }

    public PatientQuery patientName(String key) {
        return with("PatientName", key);
    }

    public PatientQuery patientBirthDate(String key) {
        return with("PatientBirthDate", key);
    }
}
