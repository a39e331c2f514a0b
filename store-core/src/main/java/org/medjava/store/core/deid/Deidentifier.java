package org.medjava.store.core.deid;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeFactory;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.SequenceAttribute;
import com.pixelmed.dicom.SequenceItem;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.dicom.ValueRepresentation;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.medjava.store.core.ingest.Part10Rewrite;

/**
 * De-identifies DICOM data sets by PS3.15 Annex E: the Basic Application Level Confidentiality Profile and the options
 * of {@link DeidOptions}, attribute by attribute as {@link ConfidentialityProfile} (Table E.1-1) says, sequences walked
 * at every depth, private attributes removed unless the Retain Safe Private option keeps them. The result records what
 * was done (Patient Identity Removed, De-identification Method and its Code Sequence, Longitudinal Temporal Information
 * Modified). Pixel data are never changed (nor decoded), so the transfer syntax is kept; burned-in annotation is
 * flagged in the result. One instance per job: its {@link UidMap} is shared by the instances the job de-identifies.
 */
public final class Deidentifier {

    private static final DateTimeFormatter DA = DateTimeFormatter.BASIC_ISO_DATE;
    /** Text VRs a cleaner or a dummy can be given. */
    private static final Set<String> TEXT = Set.of("AE", "CS", "LO", "LT", "PN", "SH", "ST", "UC", "UT", "UR");
    private static final Set<String> BINARY_NUMBERS = Set.of("US", "SS", "UL", "SL", "FL", "FD", "UV", "SV");
    /** Measurements: kept in structured content and dummy sequences (not about the patient's identity). */
    private static final Set<String> NUMBERS = Set.of("US", "SS", "UL", "SL", "FL", "FD", "UV", "SV", "DS", "IS",
            "OF", "OD", "AT");

    private final ConfidentialityProfile profile;
    private final DeidOptions options;
    private final UidMap uids;

    public Deidentifier(DeidOptions options, UidMap uids) {
        this(ConfidentialityProfile.standard(), options, uids);
    }

    public Deidentifier(ConfidentialityProfile profile, DeidOptions options, UidMap uids) {
        this.profile = profile;
        this.options = options;
        this.uids = uids;
    }

    public DeidOptions options() {
        return options;
    }

    /**
     * A de-identified copy of {@code source} (which is not changed; attributes kept as they are may be shared with it).
     * File meta information (group 0002) is left out: the writer makes it anew.
     *
     * @throws DeidRefused when an attribute cannot be de-identified safely: nothing of this instance may be kept
     */
    public DeidResult deidentify(AttributeList source) throws DeidRefused {
        Set<String> identifiers = new HashSet<>();
        collectIdentifiers(source, identifiers);
        AttributeList out = walk(source, "", identifiers, Mode.TABLE);
        try {
            record(out);
        } catch (DicomException e) {
            throw new IllegalStateException("cannot add the de-identification attributes: " + e.getMessage(), e);
        }
        String modality = Attribute.getSingleStringValueOrEmptyString(source, TagFromName.Modality).strip();
        String burned = Attribute.getSingleStringValueOrEmptyString(source, TagFromName.BurnedInAnnotation).strip();
        DeidResult.BurnedIn burnedIn = burned.equalsIgnoreCase("YES") ? DeidResult.BurnedIn.YES
                : burned.equalsIgnoreCase("NO") ? DeidResult.BurnedIn.NO : DeidResult.BurnedIn.ABSENT;
        boolean secondaryCapture = Attribute.getSingleStringValueOrEmptyString(source, TagFromName.SOPClassUID)
                .startsWith("1.2.840.10008.5.1.4.1.1.7");
        boolean review = burnedIn == DeidResult.BurnedIn.YES || burnedIn == DeidResult.BurnedIn.ABSENT
                && (DeidResult.RISKY_MODALITIES.contains(modality) || secondaryCapture);
        return new DeidResult(out, burnedIn, modality, review);
    }

    /**
     * Reads a Part 10 file, de-identifies it and writes it as Part 10 in its own transfer syntax to {@code out}, its
     * Pixel Data element byte for byte (encapsulated pixel data are copied from the file as they are: fragments,
     * padding and offset table). Nothing is written when the instance is refused.
     *
     * @throws IOException when the file cannot be read as DICOM or the result cannot be written
     * @throws DeidRefused as {@link #deidentify(AttributeList)}, or when attributes other than padding and
     *                     signatures follow encapsulated pixel data
     */
    public DeidResult deidentify(Path file, OutputStream out) throws IOException, DeidRefused {
        DeidResult[] result = {null};
        try {
            Part10Rewrite.rewrite(file, out, source -> {
                result[0] = deidentify(source);
                return result[0].dataSet();
            });
        } catch (Part10Rewrite.AfterPixelData e) {
            throw new DeidRefused("after (0x7fe0,0x0010)", "attributes after encapsulated pixel data");
        }
        return result[0];
    }

    /**
     * What happens to attributes the table does not list: kept ({@code TABLE}); inside a sequence given a dummy (D),
     * dummies for every value but codes and numbers ({@code DUMMY}); inside a sequence to clean (C, Clean Structured
     * Content or Descriptors), text through the cleaner ({@code CLEAN}). Listed attributes follow the table everywhere.
     */
    private enum Mode {
        TABLE, DUMMY, CLEAN
    }

    private AttributeList walk(AttributeList in, String path, Set<String> ids, Mode mode) throws DeidRefused {
        AttributeList out = new AttributeList();
        for (Attribute a : in.values()) {
            AttributeTag t = a.getTag();
            if (t.isFileMetaInformationGroup() || t.isGroupLength()) {
                continue;
            }
            String where = path + t;
            if (t.isPrivate()) {
                if (keepsPrivate(in, t)) {
                    out.put(kept(a, where, ids, mode));
                }
                continue;
            }
            ConfidentialityProfile.Row row = profile.row(t.getGroup(), t.getElement());
            if (row == null) {
                out.put(unlisted(a, where, ids, mode));
                continue;
            }
            ConfidentialityProfile.Resolved r = row.resolve(options.options());
            Attribute done = apply(choose(r.action(), a), r.option(), a, where, ids, mode);
            if (done != null) {
                out.put(pseudonym(done));
            }
        }
        return out;
    }

    /** The attribute as the action leaves it, or null when removed. */
    private Attribute apply(Action action, DeidOption option, Attribute a, String where, Set<String> ids, Mode mode)
            throws DeidRefused {
        String vr = vr(a);
        if (action == Action.X) {
            return null;
        }
        if (action == Action.Z) {
            return empty(a);
        }
        if (action == Action.K || isEmpty(a)) { // an empty value identifies nobody
            return kept(a, where, ids, mode);
        }
        try {
            return switch (action) {
                case D -> dummy(a, vr, where, ids);
                case U -> uid(a, vr, where, ids, mode);
                case C -> clean(a, vr, option, where, ids);
                default -> throw new IllegalStateException("a choice left undecided: " + action);
            };
        } catch (DicomException e) {
            throw new DeidRefused(where, "cannot write its new value: " + e.getMessage());
        }
    }

    private Action choose(Action action, Attribute a) {
        boolean conformant = options.choice() == DeidOptions.Choice.CONFORMANT;
        return switch (action) {
            case X_OR_Z, X_OR_Z_OR_D -> conformant ? Action.Z : Action.X;
            case X_OR_D -> conformant ? Action.D : Action.X;
            case Z_OR_D -> conformant ? Action.D : Action.Z;
            case X_OR_Z_OR_U -> !conformant ? Action.X
                    : a instanceof SequenceAttribute || "UI".equals(vr(a)) ? Action.U : Action.Z;
            default -> action;
        };
    }

    private Attribute dummy(Attribute a, String vr, String where, Set<String> ids) throws DicomException, DeidRefused {
        if (a instanceof SequenceAttribute s) {
            return walked(s, where, ids, Mode.DUMMY);
        }
        if ("UI".equals(vr)) {
            return uid(a, vr, where, ids, Mode.DUMMY);
        }
        String value = switch (vr) {
            case "DA" -> "19000101";
            case "TM" -> "000000";
            case "DT" -> "19000101000000";
            case "AS" -> "000D";
            case "DS", "IS" -> "0";
            default -> TEXT.contains(vr) ? options.dummyText() : BINARY_NUMBERS.contains(vr) ? "0" : null;
        };
        if (value == null) {
            throw new DeidRefused(where, "no dummy value for VR " + vr);
        }
        Attribute d = AttributeFactory.newAttribute(a.getTag(), a.getVR());
        d.addValue(value);
        return d;
    }

    private Attribute uid(Attribute a, String vr, String where, Set<String> ids, Mode mode)
            throws DicomException, DeidRefused {
        if (a instanceof SequenceAttribute s) {
            return walked(s, where, ids, mode);
        }
        if (!"UI".equals(vr)) {
            throw new DeidRefused(where, "a UID to replace in VR " + vr);
        }
        Attribute d = AttributeFactory.newAttribute(a.getTag(), a.getVR());
        for (String v : a.getStringValues()) {
            d.addValue(uids.map(v));
        }
        return d;
    }

    private Attribute clean(Attribute a, String vr, DeidOption option, String where, Set<String> ids)
            throws DicomException, DeidRefused {
        if (a instanceof SequenceAttribute s) {
            return walked(s, where, ids, Mode.CLEAN);
        }
        if (option == DeidOption.RETAIN_LONGITUDINAL_MODIFIED_DATES) {
            if ("TM".equals(vr)) {
                return a; // a shift by whole days leaves times of day as they were
            }
            if ("DA".equals(vr) || "DT".equals(vr)) {
                Attribute d = AttributeFactory.newAttribute(a.getTag(), a.getVR());
                for (String v : a.getStringValues()) {
                    d.addValue(shifted(v.strip(), where));
                }
                return d;
            }
        }
        if (!TEXT.contains(vr)) {
            throw new DeidRefused(where, "cannot clean a value of VR " + vr);
        }
        return cleaned(a, where, ids);
    }

    private Attribute cleaned(Attribute a, String where, Set<String> ids) throws DicomException, DeidRefused {
        Attribute d = AttributeFactory.newAttribute(a.getTag(), a.getVR());
        for (String v : a.getStringValues()) {
            String c = options.cleaner().clean(a.getTag().toString(), v, ids);
            if (c == null) {
                throw new DeidRefused(where, "its text cannot be cleaned (it holds an identifying value)");
            }
            d.addValue(c);
        }
        return d;
    }

    private String shifted(String value, String where) throws DeidRefused {
        if (value.length() < 8) {
            throw new DeidRefused(where, "a date too partial to shift: " + value);
        }
        try {
            return LocalDate.parse(value.substring(0, 8), DA).plusDays(options.dateShiftDays()).format(DA)
                    + value.substring(8);
        } catch (DateTimeParseException e) {
            throw new DeidRefused(where, "not a date: " + value);
        }
    }

    private Attribute kept(Attribute a, String where, Set<String> ids, Mode mode) throws DeidRefused {
        return a instanceof SequenceAttribute s ? walked(s, where, ids, mode) : a;
    }

    /** An attribute the table does not list, as the mode says ({@link Mode}). */
    private Attribute unlisted(Attribute a, String where, Set<String> ids, Mode mode) throws DeidRefused {
        String vr = vr(a);
        if (mode == Mode.TABLE || a instanceof SequenceAttribute || isEmpty(a) || "CS".equals(vr) || isCode(a)
                || NUMBERS.contains(vr) || mode == Mode.CLEAN && vr.matches("DA|DT|TM|UI")) {
            return kept(a, where, ids, mode);
        }
        try {
            if (mode == Mode.DUMMY) {
                return dummy(a, vr, where, ids);
            }
            if (!TEXT.contains(vr)) {
                throw new DeidRefused(where, "cannot clean a value of VR " + vr + " in structured content");
            }
            return cleaned(a, where, ids);
        } catch (DicomException e) {
            throw new DeidRefused(where, "cannot write its new value: " + e.getMessage());
        }
    }

    /** An attribute of the Code Sequence Macro (PS3.3 Table 8.8-1): a coded concept, not about the patient. */
    private static boolean isCode(Attribute a) {
        AttributeTag t = a.getTag();
        return t.getGroup() == 0x0008 && t.getElement() >= 0x0100 && t.getElement() <= 0x0122;
    }

    /** A sequence whose items are de-identified like the data set. */
    private SequenceAttribute walked(SequenceAttribute s, String where, Set<String> ids, Mode mode)
            throws DeidRefused {
        SequenceAttribute copy = new SequenceAttribute(s.getTag());
        int i = 0;
        for (SequenceItem item : iterable(s)) {
            copy.addItem(walk(item.getAttributeList(), where + "[" + ++i + "]/", ids, mode));
        }
        return copy;
    }

    private boolean keepsPrivate(AttributeList in, AttributeTag t) {
        if (!options.options().contains(DeidOption.RETAIN_SAFE_PRIVATE)) {
            return false;
        }
        if (t.isPrivateCreator()) {
            return options.safePrivate().hasCreator(
                    Attribute.getSingleStringValueOrEmptyString(in, t), t.getGroup());
        }
        return options.safePrivate().isSafe(in.getPrivateCreatorString(t), t.getGroup(), t.getElement());
    }

    private Attribute pseudonym(Attribute a) {
        String value = a.getTag().equals(TagFromName.PatientName) ? options.patientName()
                : a.getTag().equals(TagFromName.PatientID) ? options.patientId() : null;
        if (value == null) {
            return a;
        }
        try {
            Attribute p = AttributeFactory.newAttribute(a.getTag(), a.getVR());
            p.addValue(value);
            return p;
        } catch (DicomException e) {
            throw new IllegalArgumentException("a pseudonym that is not a valid value: " + value, e);
        }
    }

    /** Patient Identity Removed, De-identification Method and Code Sequence, Longitudinal Temporal Information. */
    private void record(AttributeList out) throws DicomException {
        put(out, TagFromName.PatientIdentityRemoved, "YES");
        StringBuilder method = new StringBuilder("PS3.15 E.1-1 Basic Profile");
        SequenceAttribute codes = new SequenceAttribute(TagFromName.DeidentificationMethodCodeSequence);
        codes.addItem(code(DeidOption.BASIC_PROFILE_CODE, DeidOption.BASIC_PROFILE_MEANING));
        for (DeidOption o : DeidOption.values()) {
            if (options.options().contains(o)) {
                codes.addItem(code(o.code(), o.meaning()));
            }
        }
        if (options.options().size() > 0) {
            method.append(" + ").append(options.options().size()).append(" option(s)");
        }
        put(out, TagFromName.DeidentificationMethod, method + " (MedJava)");
        out.put(codes);
        put(out, TagFromName.LongitudinalTemporalInformationModified,
                options.options().contains(DeidOption.RETAIN_LONGITUDINAL_MODIFIED_DATES) ? "MODIFIED"
                        : options.options().contains(DeidOption.RETAIN_LONGITUDINAL_FULL_DATES) ? "UNMODIFIED"
                        : "REMOVED");
    }

    private static AttributeList code(String value, String meaning) throws DicomException {
        AttributeList item = new AttributeList();
        put(item, TagFromName.CodeValue, value);
        put(item, TagFromName.CodingSchemeDesignator, "DCM");
        put(item, TagFromName.CodeMeaning, meaning);
        return item;
    }

    private static void put(AttributeList list, AttributeTag tag, String value) throws DicomException {
        Attribute a = AttributeFactory.newAttribute(tag);
        a.addValue(value);
        list.put(a);
    }

    /**
     * The identifying values of an instance, for the cleaner: the original text values the profile (with the
     * options) removes or replaces, names split into components, upper case, 3 characters or more.
     */
    private void collectIdentifiers(AttributeList in, Set<String> ids) {
        for (Attribute a : in.values()) {
            if (a instanceof SequenceAttribute s) {
                for (SequenceItem item : iterable(s)) {
                    collectIdentifiers(item.getAttributeList(), ids);
                }
                continue;
            }
            AttributeTag t = a.getTag();
            ConfidentialityProfile.Row row = t.isPrivate() ? null : profile.row(t.getGroup(), t.getElement());
            String vr = vr(a);
            Action action = row == null ? null : row.resolve(options.options()).action();
            if (action == null || action == Action.K || action == Action.C || !TEXT.contains(vr) || "CS".equals(vr)) {
                continue;
            }
            String[] values;
            try {
                values = a.getStringValues();
            } catch (DicomException e) {
                continue;
            }
            for (String v : values == null ? new String[0] : values) {
                for (String part : v.split("[\\^=]")) {
                    String p = part.strip().toUpperCase(Locale.ROOT);
                    if (p.length() >= 3 && !p.equals(options.dummyText())) {
                        ids.add(p);
                    }
                }
            }
        }
    }

    private static Attribute empty(Attribute a) throws DeidRefused {
        if (a instanceof SequenceAttribute) {
            return new SequenceAttribute(a.getTag());
        }
        try {
            return AttributeFactory.newAttribute(a.getTag(), a.getVR());
        } catch (DicomException e) {
            throw new DeidRefused(a.getTag().toString(), "cannot make it empty: " + e.getMessage());
        }
    }

    private static boolean isEmpty(Attribute a) {
        return a instanceof SequenceAttribute s ? s.getNumberOfItems() == 0 : a.getVL() == 0;
    }

    private static String vr(Attribute a) {
        return ValueRepresentation.getAsString(a.getVR());
    }

    private static Iterable<SequenceItem> iterable(SequenceAttribute s) {
        return s::iterator;
    }
}
