package org.medjava.store.core.deid;

import java.util.EnumSet;
import java.util.Set;

/**
 * How a job de-identifies: the options of PS3.15 E.1-1 on top of the Basic Profile, how the table's choices are made,
 * the dummy text, the date shift of the Modified Dates option, the cleaner of descriptors, the pseudonyms given to the
 * patient, and the safe private attributes. Immutable; start from {@link #basic()} and use the {@code with} methods.
 *
 * @param options       the options applied (Full Dates and Modified Dates exclude each other)
 * @param choice        how Z/D, X/Z, X/D, X/Z/D and X/Z/U* are decided
 * @param dummyText     the dummy of text attributes (D); at most 16 characters (it must fit SH, CS and AE)
 * @param dateShiftDays days added to every date with the Modified Dates option (negative: earlier); 0 otherwise
 * @param cleaner       what "clean" (C) does to a text value
 * @param patientName   a pseudonym put in Patient's Name instead of its empty or dummy value; null: none
 * @param patientId     a pseudonym put in Patient ID instead of its empty or dummy value; null: none
 * @param safePrivate   the private attributes the Retain Safe Private option keeps
 */
public record DeidOptions(Set<DeidOption> options, Choice choice, String dummyText, int dateShiftDays,
                          DescriptorCleaner cleaner, String patientName, String patientId,
                          SafePrivateAttributes safePrivate) {

    /**
     * How a choice of the table is made. The table's "X unless Z (or D, U) is required to keep the IOD conformant"
     * depends on the attribute's type in its IOD (3, 2 or 1), which the engine does not look up.
     */
    public enum Choice {
        /** the choice that keeps any IOD conformant: X/Z and X/Z/D give Z, X/D and Z/D give D, X/Z/U* gives U */
        CONFORMANT,
        /** the least kept: X whenever allowed, Z for Z/D (an object may then miss a Type 1 or 2 attribute) */
        MINIMAL
    }

    /** The Patient's Name a pseudonymised copy carries unless told another. */
    public static final String PSEUDONYM_NAME = "ANONYMOUS";

    public DeidOptions {
        options = options.isEmpty() ? EnumSet.noneOf(DeidOption.class) : EnumSet.copyOf(options);
        if (options.contains(DeidOption.RETAIN_LONGITUDINAL_FULL_DATES)
                && options.contains(DeidOption.RETAIN_LONGITUDINAL_MODIFIED_DATES)) {
            throw new IllegalArgumentException("Retain Longitudinal Temporal Information with Full Dates and with"
                    + " Modified Dates exclude each other");
        }
        if (dateShiftDays != 0 && !options.contains(DeidOption.RETAIN_LONGITUDINAL_MODIFIED_DATES)) {
            throw new IllegalArgumentException("a date shift needs the Modified Dates option");
        }
        if (dummyText.isEmpty() || dummyText.length() > 16 || !dummyText.matches("[A-Z0-9 _]+")) {
            throw new IllegalArgumentException("the dummy text must be 1 to 16 of A-Z, 0-9, space, _: " + dummyText);
        }
        options = java.util.Collections.unmodifiableSet(options);
    }

    /** The Basic Profile alone: choices {@link Choice#CONFORMANT}, dummy "ANONYMIZED", no pseudonyms. */
    public static DeidOptions basic() {
        return new DeidOptions(Set.of(), Choice.CONFORMANT, "ANONYMIZED", 0, DescriptorCleaner.refusingIdentifiers(),
                null, null, SafePrivateAttributes.standard());
    }

    /** These options in addition (a Modified Dates option keeps the shift given by {@link #withDateShift}). */
    public DeidOptions with(DeidOption... more) {
        Set<DeidOption> all = options.isEmpty() ? EnumSet.noneOf(DeidOption.class) : EnumSet.copyOf(options);
        all.addAll(Set.of(more));
        return new DeidOptions(all, choice, dummyText, dateShiftDays, cleaner, patientName, patientId, safePrivate);
    }

    /** The Modified Dates option, every date moved by {@code days}. */
    public DeidOptions withDateShift(int days) {
        Set<DeidOption> all = EnumSet.of(DeidOption.RETAIN_LONGITUDINAL_MODIFIED_DATES);
        all.addAll(options);
        return new DeidOptions(all, choice, dummyText, days, cleaner, patientName, patientId, safePrivate);
    }

    public DeidOptions withChoice(Choice c) {
        return new DeidOptions(options, c, dummyText, dateShiftDays, cleaner, patientName, patientId, safePrivate);
    }

    public DeidOptions withDummyText(String text) {
        return new DeidOptions(options, choice, text, dateShiftDays, cleaner, patientName, patientId, safePrivate);
    }

    public DeidOptions withCleaner(DescriptorCleaner c) {
        return new DeidOptions(options, choice, dummyText, dateShiftDays, c, patientName, patientId, safePrivate);
    }

    /** Pseudonyms for Patient's Name and Patient ID (the same patient should get the same ones across a job). */
    public DeidOptions withPseudonym(String name, String id) {
        return new DeidOptions(options, choice, dummyText, dateShiftDays, cleaner, name, id, safePrivate);
    }

    public DeidOptions withSafePrivate(SafePrivateAttributes list) {
        return new DeidOptions(options, choice, dummyText, dateShiftDays, cleaner, patientName, patientId, list);
    }
}
