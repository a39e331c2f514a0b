package org.medjava.store.core.correct;

import java.time.LocalDate;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.medjava.store.core.StoreException;

/**
 * The new values of a correction, by DICOM keyword, checked against their value representations, and why it is
 * made. Only {@link #ATTRIBUTES} may be corrected: the patient's identity and the study's descriptive attributes,
 * never a UID (a correction keeps the instances' identity, as IHE and dcm4chee do). A value is 1 to its VR's length
 * of printable ASCII without a backslash (one value; the stored objects' character sets need not cover more);
 * an empty value is refused (removing an attribute is not a correction the index could follow).
 */
public record Correction(Map<String, String> values, String reason) {

    /** The attributes a correction may change, with their most characters (PS3.5 6.2). */
    public static final Map<String, Integer> ATTRIBUTES = attributes("PatientID", 64, "PatientName", 64,
            "IssuerOfPatientID", 64, "PatientBirthDate", 8, "PatientSex", 1, "AccessionNumber", 16,
            "StudyDescription", 64, "StudyDate", 8, "StudyTime", 16, "ReferringPhysicianName", 64, "StudyID", 16);
    /** The patient's attributes among them (a merge gives every study of one patient another's). */
    public static final java.util.List<String> PATIENT = java.util.List.of("PatientID", "PatientName",
            "IssuerOfPatientID", "PatientBirthDate", "PatientSex");
    private static final int REASON_LENGTH = 256;

    public Correction {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    private static Map<String, Integer> attributes(Object... pairs) {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], (Integer) pairs[i + 1]);
        }
        return Collections.unmodifiableMap(m);
    }

    /** Whether {@code keyword} may be corrected. */
    public static boolean correctable(String keyword) {
        return ATTRIBUTES.containsKey(keyword);
    }

    /**
     * The correction {@code values} ask for, each checked (400 naming the attribute and what it may be).
     *
     * @throws StoreException BAD_REQUEST for an attribute that may not be corrected, a bad value, or no value at all
     */
    public static Correction of(Map<String, String> values, String reason) {
        Map<String, String> checked = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : values.entrySet()) {
            String keyword = e.getKey();
            if (!correctable(keyword)) {
                throw bad(keyword.endsWith("UID") ? keyword + " cannot be corrected: a correction keeps every UID of"
                        + " the instances it rewrites" : "\"" + keyword + "\" cannot be corrected; these can: "
                        + String.join(", ", ATTRIBUTES.keySet()));
            }
            checked.put(keyword, value(keyword, e.getValue()));
        }
        if (checked.isEmpty()) {
            throw bad("a correction needs at least one new value, of " + String.join(", ", ATTRIBUTES.keySet()));
        }
        if (reason != null && (reason.length() > REASON_LENGTH || reason.chars().anyMatch(c -> c < 0x20))) {
            throw bad("reason is at most " + REASON_LENGTH + " characters on one line");
        }
        return new Correction(checked, reason == null || reason.isBlank() ? null : reason.strip());
    }

    private static String value(String keyword, String value) {
        String v = value == null ? "" : value.strip();
        int max = ATTRIBUTES.get(keyword);
        if (v.isEmpty() || v.length() > max || v.contains("\\") || !v.chars().allMatch(c -> c >= 0x20 && c < 0x7F)) {
            throw bad(keyword + " must be 1 to " + max + " printable ASCII characters without a backslash, not \""
                    + value + "\"");
        }
        switch (keyword) {
            case "PatientBirthDate", "StudyDate" -> date(keyword, v);
            case "StudyTime" -> time(v);
            case "PatientSex" -> {
                if (!v.equals("M") && !v.equals("F") && !v.equals("O")) {
                    throw bad("PatientSex is M, F or O, not \"" + v + "\"");
                }
            }
            default -> { }
        }
        return v;
    }

    private static void date(String keyword, String v) {
        try {
            LocalDate.parse(v, DateTimeFormatter.BASIC_ISO_DATE);
        } catch (DateTimeParseException e) {
            throw bad(keyword + " is a date YYYYMMDD, not \"" + v + "\"");
        }
    }

    private static void time(String v) {
        if (!v.matches("[0-9]{2}([0-9]{2}([0-9]{2}(\\.[0-9]{1,6})?)?)?")) {
            throw bad("StudyTime is HH, HHMM, HHMMSS or HHMMSS.FFFFFF, not \"" + v + "\"");
        }
        try {
            LocalTime.of(Integer.parseInt(v.substring(0, 2)), v.length() >= 4 ? Integer.parseInt(v.substring(2, 4))
                    : 0, v.length() >= 6 ? Integer.parseInt(v.substring(4, 6)) : 0);
        } catch (java.time.DateTimeException e) {
            throw bad("StudyTime \"" + v + "\" is not a time of day");
        }
    }

    private static StoreException bad(String message) {
        return new StoreException(StoreException.Kind.BAD_REQUEST, message);
    }
}
