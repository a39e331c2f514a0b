package org.medjava.store.core.index;

import jakarta.persistence.TypedQuery;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.ParameterExpression;
import jakarta.persistence.criteria.Predicate;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns DICOM matching keys (PS3.4 C.2.2.2) into Criteria API predicates. Every value reaches the database as a
 * bound parameter, collected here and set by {@link #bind(TypedQuery)}.
 */
final class Matching {
    /** How a key is matched, by the attribute's value representation. */
    enum Vr {
        /** UID: single value or list, no wildcards. */
        UI,
        /** Date YYYYMMDD: single value, range, list. */
        DA,
        /** Time HHMMSS.FFFFFF: single value, range, list. */
        TM,
        /** Person name: single value, wildcard, list; case-insensitive when fuzzy. */
        PN,
        /** Integer string: single value, list. */
        IS,
        /** Other strings (CS, SH, LO): single value, wildcard, list. */
        TEXT
    }

    static final char ESCAPE = '!';

    /** How each keyword that a query level supports is matched. */
    static final Map<String, Vr> VRS = Map.ofEntries(
            Map.entry("PatientID", Vr.TEXT), Map.entry("IssuerOfPatientID", Vr.TEXT),
            Map.entry("PatientName", Vr.PN), Map.entry("PatientBirthDate", Vr.DA), Map.entry("PatientSex", Vr.TEXT),
            Map.entry("StudyInstanceUID", Vr.UI), Map.entry("StudyDate", Vr.DA), Map.entry("StudyTime", Vr.TM),
            Map.entry("AccessionNumber", Vr.TEXT), Map.entry("StudyID", Vr.TEXT),
            Map.entry("StudyDescription", Vr.TEXT), Map.entry("ReferringPhysicianName", Vr.PN),
            Map.entry("ModalitiesInStudy", Vr.TEXT), Map.entry("SeriesInstanceUID", Vr.UI),
            Map.entry("Modality", Vr.TEXT), Map.entry("SeriesNumber", Vr.IS),
            Map.entry("SeriesDescription", Vr.TEXT), Map.entry("BodyPartExamined", Vr.TEXT),
            Map.entry("SeriesDate", Vr.DA), Map.entry("SOPInstanceUID", Vr.UI), Map.entry("SOPClassUID", Vr.UI),
            Map.entry("InstanceNumber", Vr.IS));

    /**
     * Checks a matching key without building anything, as {@link #match} would.
     *
     * @throws IllegalArgumentException when the key is not valid for the attribute
     */
    static void validate(String keyword, String key) {
        Vr vr = VRS.getOrDefault(keyword, Vr.TEXT);
        if (key == null || isUniversal(key.trim())) {
            return;
        }
        for (String element : key.trim().split("\\\\", -1)) {
            element = element.trim();
            if (isUniversal(element)) {
                return;
            }
            switch (vr) {
                case IS -> parseInteger(keyword, element);
                case UI -> {
                    if (hasWildcard(element)) {
                        throw new IllegalArgumentException(keyword + ": wildcards are not allowed in UID matching");
                    }
                }
                case DA, TM -> rangeBounds(keyword, element, vr);
                default -> {
                }
            }
        }
    }
    private static final Pattern DATE = Pattern.compile("\\d{8}");
    private static final Pattern TIME = Pattern.compile("(\\d{2})(?:(\\d{2})(?:(\\d{2})(?:\\.\\d{1,6})?)?)?");
    private static final DateTimeFormatter CALENDAR_DAY = DateTimeFormatter.ofPattern("uuuuMMdd")
            .withResolverStyle(ResolverStyle.STRICT);

    private final CriteriaBuilder cb;
    private final Map<ParameterExpression<?>, Object> values = new LinkedHashMap<>();

    Matching(CriteriaBuilder cb) {
        this.cb = cb;
    }

    /** A new parameter bound to {@code value}. */
    <T> ParameterExpression<T> param(Class<T> type, T value) {
        ParameterExpression<T> p = cb.parameter(type);
        values.put(p, value);
        return p;
    }

    /** Sets the collected parameter values on {@code query}. */
    @SuppressWarnings("unchecked")
    void bind(TypedQuery<?> query) {
        values.forEach((p, v) -> query.setParameter((ParameterExpression<Object>) p, v));
    }

    /**
     * The predicate matching {@code column} against {@code key}, or null for universal matching.
     *
     * @param lowerColumn the column holding the lower-case value, for fuzzy PN matching (null: lower() in SQL)
     * @throws IllegalArgumentException when the key is not valid for the attribute
     */
    Predicate match(String keyword, String key, Vr vr, Expression<?> column, Expression<String> lowerColumn,
            boolean fuzzy) {
        if (key == null || isUniversal(key.trim())) {
            return null;
        }
        List<Predicate> any = new ArrayList<>();
        for (String element : key.trim().split("\\\\", -1)) {
            element = element.trim();
            if (isUniversal(element)) {
                return null;
            }
            any.add(element(keyword, element, vr, column, lowerColumn, fuzzy));
        }
        return any.size() == 1 ? any.get(0) : cb.or(any.toArray(Predicate[]::new));
    }

    private static boolean isUniversal(String key) {
        return key.chars().allMatch(c -> c == '*');
    }

    private static boolean hasWildcard(String value) {
        return value.indexOf('*') >= 0 || value.indexOf('?') >= 0;
    }

    @SuppressWarnings("unchecked")
    private Predicate element(String keyword, String value, Vr vr, Expression<?> column,
            Expression<String> lowerColumn, boolean fuzzy) {
        switch (vr) {
            case IS -> {
                return cb.equal(column, param(Integer.class, parseInteger(keyword, value)));
            }
            case UI -> {
                if (hasWildcard(value)) {
                    throw new IllegalArgumentException(keyword + ": wildcards are not allowed in UID matching");
                }
                return cb.equal(column, param(String.class, value));
            }
            case DA, TM -> {
                return range(keyword, value, vr, (Expression<String>) column);
            }
            default -> {
                Expression<String> col = (Expression<String>) column;
                String v = value;
                if (fuzzy && vr == Vr.PN) {
                    col = lowerColumn != null ? lowerColumn : cb.lower(col);
                    v = value.toLowerCase(Locale.ROOT);
                }
                return hasWildcard(v)
                        ? cb.like(col, param(String.class, likePattern(v)), ESCAPE)
                        : cb.equal(col, param(String.class, v));
            }
        }
    }

    private Predicate range(String keyword, String value, Vr vr, Expression<String> column) {
        String[] bounds = rangeBounds(keyword, value, vr);
        if (bounds.length == 1) {
            return cb.equal(column, param(String.class, bounds[0]));
        }
        List<Predicate> both = new ArrayList<>(2);
        if (bounds[0] != null) {
            both.add(cb.greaterThanOrEqualTo(column, param(String.class, bounds[0])));
        }
        if (bounds[1] != null) {
            both.add(cb.lessThanOrEqualTo(column, param(String.class, bounds[1])));
        }
        return both.size() == 1 ? both.get(0) : cb.and(both.toArray(Predicate[]::new));
    }

    /**
     * A date or time key as {value} (single value) or {from, to} (a range; null for an open end), normalized.
     */
    private static String[] rangeBounds(String keyword, String value, Vr vr) {
        if (hasWildcard(value)) {
            throw new IllegalArgumentException(keyword + ": wildcards are not allowed in date and time matching");
        }
        int dash = value.indexOf('-');
        if (dash < 0) {
            return new String[] {normalize(keyword, value, vr)};
        }
        String from = value.substring(0, dash).trim();
        String to = value.substring(dash + 1).trim();
        if (from.isEmpty() && to.isEmpty()) {
            throw new IllegalArgumentException(keyword + ": empty range '" + value + "'");
        }
        String upper = to.isEmpty() ? null : normalize(keyword, to, vr);
        if (upper != null && vr == Vr.TM && upper.indexOf('.') < 0) {
            // "0800" as an upper bound includes 08:00:59.999999
            upper = (upper + "9999").substring(0, 6) + ".999999";
        }
        return new String[] {from.isEmpty() ? null : normalize(keyword, from, vr), upper};
    }

    private static Integer parseInteger(String keyword, String value) {
        try {
            return Integer.valueOf(value.startsWith("+") ? value.substring(1) : value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(keyword + ": '" + value + "' is not an integer");
        }
    }

    /**
     * A date YYYYMMDD (the ACR-NEMA form YYYY.MM.DD too) that is a day of the calendar, or a time HH, HHMM, HHMMSS or
     * HHMMSS.F{1-6} within the day (seconds 60: a leap second, PS3.5 6.2), without separators.
     */
    private static String normalize(String keyword, String value, Vr vr) {
        if (vr == Vr.DA) {
            String d = value.replace(".", "");
            if (!DATE.matcher(d).matches()) {
                throw new IllegalArgumentException(keyword + ": '" + value + "' is not a date YYYYMMDD");
            }
            try {
                LocalDate.parse(d, CALENDAR_DAY);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(keyword + ": '" + value + "' is not a date YYYYMMDD: "
                        + d.substring(0, 4) + "-" + d.substring(4, 6) + "-" + d.substring(6) + " is not a day");
            }
            return d;
        }
        String t = value.replace(":", "");
        Matcher m = TIME.matcher(t);
        if (!m.matches()) {
            throw new IllegalArgumentException(keyword + ": '" + value + "' is not a time HHMMSS.FFFFFF");
        }
        if (Integer.parseInt(m.group(1)) > 23 || m.group(2) != null && Integer.parseInt(m.group(2)) > 59
                || m.group(3) != null && Integer.parseInt(m.group(3)) > 60) {
            throw new IllegalArgumentException(keyword + ": '" + value + "' is not a time HHMMSS.FFFFFF: hours run"
                    + " 00-23, minutes 00-59, seconds 00-60");
        }
        return t;
    }

    /** A DICOM wildcard value as a LIKE pattern: '*' → '%', '?' → '_', with %, _ and the escape character escaped. */
    static String likePattern(String value) {
        StringBuilder sb = new StringBuilder(value.length() + 8);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '*' -> sb.append('%');
                case '?' -> sb.append('_');
                case '%', '_', ESCAPE -> sb.append(ESCAPE).append(c);
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
