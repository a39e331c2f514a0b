package org.medjava.store.core.deid;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The options of PS3.15 Table E.1-1 the engine applies, each with its column in the table resource and its code in
 * CID 7050 (De-identification Method Code Sequence). Clean Pixel Data and Clean Recognizable Visual Features are not
 * offered: the engine never changes pixel data (burned-in annotation is flagged, {@link DeidResult#pixelsNeedReview}).
 */
public enum DeidOption {
    RETAIN_SAFE_PRIVATE("retain_safe_private", "113111", "Retain Safe Private Option"),
    RETAIN_UIDS("retain_uids", "113110", "Retain UIDs Option"),
    RETAIN_DEVICE_IDENTITY("retain_device_identity", "113109", "Retain Device Identity Option"),
    RETAIN_INSTITUTION_IDENTITY("retain_institution_identity", "113112", "Retain Institution Identity Option"),
    RETAIN_PATIENT_CHARACTERISTICS("retain_patient_characteristics", "113108", "Retain Patient Characteristics Option"),
    RETAIN_LONGITUDINAL_FULL_DATES("retain_full_dates", "113106",
            "Retain Longitudinal Temporal Information Full Dates Option"),
    RETAIN_LONGITUDINAL_MODIFIED_DATES("retain_modified_dates", "113107",
            "Retain Longitudinal Temporal Information Modified Dates Option"),
    CLEAN_DESCRIPTORS("clean_descriptors", "113105", "Clean Descriptors Option"),
    CLEAN_STRUCTURED_CONTENT("clean_structured_content", "113104", "Clean Structured Content Option"),
    CLEAN_GRAPHICS("clean_graphics", "113103", "Clean Graphics Option");

    /**
     * The options by the names the de-identify job, routing rules and move destinations give them: the enum's names
     * in lower case with hyphens ({@code clean-descriptors}).
     */
    public static final Map<String, DeidOption> BY_NAME = Arrays.stream(values()).collect(Collectors.toMap(
            o -> o.name().toLowerCase(Locale.ROOT).replace('_', '-'), o -> o, (a, b) -> a, TreeMap::new));
    /** The Basic Profile's code (CID 7050). */
    public static final String BASIC_PROFILE_CODE = "113100";
    public static final String BASIC_PROFILE_MEANING = "Basic Application Confidentiality Profile";

    private final String column;
    private final String code;
    private final String meaning;

    DeidOption(String column, String code, String meaning) {
        this.column = column;
        this.code = code;
        this.meaning = meaning;
    }

    /** The option's column in {@code ps3.15-e1-1.tsv}. */
    public String column() {
        return column;
    }

    /** Its code value (coding scheme DCM). */
    public String code() {
        return code;
    }

    public String meaning() {
        return meaning;
    }
}
