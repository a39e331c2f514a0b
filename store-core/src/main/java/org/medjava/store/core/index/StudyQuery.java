package org.medjava.store.core.index;

import java.util.List;
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

    /** Keywords studies can be ordered by (QIDO-RS {@code orderby}, as dcm4chee offers it). */
    public static final Set<String> ORDER_KEYWORDS = Set.of("PatientName", "PatientID", "StudyDate",
            "AccessionNumber", "StudyDescription", "StudyID", "ReferringPhysicianName");

    /** One key of the results' order: a keyword of {@link #ORDER_KEYWORDS}, ascending unless {@code descending}. */
    public record Order(String keyword, boolean descending) {

        public Order {
            if (!ORDER_KEYWORDS.contains(keyword)) {
                throw new IllegalArgumentException("cannot order studies by " + keyword + "; they are ordered by "
                        + String.join(", ", new java.util.TreeSet<>(ORDER_KEYWORDS)) + " (Keyword or -Keyword)");
            }
        }

        /** {@code StudyDate} (ascending) or {@code -StudyDate} (descending). */
        public static Order parse(String text) {
            String t = text.trim();
            boolean descending = t.startsWith("-");
            return new Order(descending || t.startsWith("+") ? t.substring(1) : t, descending);
        }

        @Override
        public String toString() {
            return (descending ? "-" : "") + keyword;
        }
    }

    private final List<Order> order;

    private StudyQuery(Map<String, String> keys, boolean fuzzy, int offset, int limit, Visibility visibility,
                       List<Order> order) {
        super(KEYWORDS, keys, fuzzy, offset, limit, visibility);
        this.order = List.copyOf(order);
    }

    /** Every study. */
    public static StudyQuery all() {
        return new StudyQuery(Map.of(), false, 0, 0, Visibility.everything(), List.of());
    }

    @Override
    StudyQuery copy(Map<String, String> keys, boolean fuzzy, int offset, int limit,
                   Visibility visibility) {
        return new StudyQuery(keys, fuzzy, offset, limit, visibility, order);
    }

    /** A copy whose results come in this order (then by UID); empty: newest first. */
    public StudyQuery orderBy(List<Order> keys) {
        return new StudyQuery(keys(), fuzzyNames(), offset(), limit(), visibility(), keys);
    }

    public List<Order> order() {
        return order;
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
