package org.medjava.store.core.deid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeFactory;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.SequenceAttribute;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.dicom.ValueRepresentation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PS3.15 Table E.1-1 is a test: for every row, with the Basic Profile and with each option that has a cell in it, an
 * attribute of that row gets the action the table gives, at the top of a data set and inside an item of a sequence
 * the table does not list.
 */
class DeidTableTest {

    private static final ConfidentialityProfile TABLE = ConfidentialityProfile.standard();
    private static final byte[] SECRET = "a job secret of the table test".getBytes(StandardCharsets.US_ASCII);
    /** A sequence the table does not list: its items are walked, the sequence kept. */
    private static final AttributeTag CONTAINER = TagFromName.ReferencedSeriesSequence;
    private static final int SHIFT = 10;

    record Case(ConfidentialityProfile.Row row, DeidOption option) {
        @Override
        public String toString() {
            return row.tag() + " " + row.name() + " / " + (option == null ? "basic" : option.column());
        }
    }

    static Stream<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (ConfidentialityProfile.Row row : TABLE.rows()) {
            if (row.tag().startsWith("gggg")) {
                continue; // private attributes: DeidEngineTest
            }
            cases.add(new Case(row, null));
            row.options().keySet().forEach(o -> cases.add(new Case(row, o)));
        }
        return cases.stream();
    }

    @Test
    void tableHasEveryRowAndTheContainerIsNotListed() {
        assertEquals(656, TABLE.rows().size());
        assertNull(TABLE.row(CONTAINER.getGroup(), CONTAINER.getElement()));
        assertEquals(Action.C, TABLE.privateAttributes().options().get(DeidOption.RETAIN_SAFE_PRIVATE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void attributeGetsTheTablesAction(Case c) throws Exception {
        AttributeTag tag = tagOf(c.row().tag());
        String vr = vrOf(tag);
        DeidOptions options = c.option() == null ? DeidOptions.basic()
                : c.option() == DeidOption.RETAIN_LONGITUDINAL_MODIFIED_DATES ? DeidOptions.basic().withDateShift(SHIFT)
                : DeidOptions.basic().with(c.option());
        UidMap uids = new UidMap(SECRET);
        Deidentifier engine = new Deidentifier(options, uids);

        AttributeList source = new AttributeList();
        Attribute top = sample(tag, vr);
        source.put(top);
        SequenceAttribute container = new SequenceAttribute(CONTAINER);
        AttributeList item = new AttributeList();
        item.put(sample(tag, vr));
        container.addItem(item);
        source.put(container);

        Action action = decided(c.row().resolve(options.options()).action(), vr);
        if (refuses(action, vr, c.option())) {
            DeidRefused e = assertThrows(DeidRefused.class, () -> engine.deidentify(source), c.toString());
            assertTrue(e.attribute().contains(tag.toString()), e.getMessage());
            return;
        }
        AttributeList out = engine.deidentify(source).dataSet();
        if (tag.isFileMetaInformationGroup()) { // file meta information is made anew by the writer
            assertNull(out.get(tag), c.toString());
            return;
        }
        SequenceAttribute outContainer = (SequenceAttribute) out.get(CONTAINER);
        assertNotNull(outContainer, "the unlisted container is kept");
        assertEquals(1, outContainer.getNumberOfItems());
        check(action, c, vr, top, out.get(tag), uids);
        check(action, c, vr, top, outContainer.getItem(0).getAttributeList().get(tag), uids);
    }

    private static void check(Action action, Case c, String vr, Attribute before, Attribute after, UidMap uids)
            throws Exception {
        String what = c + " (" + action.code() + ", " + vr + ")";
        switch (action) {
            case X -> assertNull(after, what + ": removed");
            case Z -> {
                assertNotNull(after, what + ": kept empty");
                assertTrue(after instanceof SequenceAttribute s ? s.getNumberOfItems() == 0 : after.getVL() == 0,
                        what + ": zero length");
            }
            case K -> {
                assertNotNull(after, what + ": kept");
                assertSameValue(before, after, what);
            }
            case D -> {
                assertNotNull(after, what + ": dummy");
                if ("SQ".equals(vr)) {
                    assertWalked(after, what);
                } else if ("UI".equals(vr)) {
                    assertEquals(uids.map(before.getSingleStringValueOrEmptyString()),
                            after.getSingleStringValueOrEmptyString(), what);
                } else {
                    assertFalse(after.getSingleStringValueOrEmptyString().isEmpty(), what + ": a value");
                    assertNotEquals(before.getSingleStringValueOrEmptyString(),
                            after.getSingleStringValueOrEmptyString(), what + ": another value");
                }
            }
            case U -> {
                assertNotNull(after, what + ": replaced");
                if ("SQ".equals(vr)) {
                    assertWalked(after, what);
                } else {
                    String mapped = after.getSingleStringValueOrEmptyString();
                    assertTrue(mapped.startsWith("2.25."), what + ": " + mapped);
                    assertEquals(uids.map(before.getSingleStringValueOrEmptyString()), mapped, what + ": consistent");
                }
            }
            case C -> {
                assertNotNull(after, what + ": cleaned");
                if ("SQ".equals(vr)) {
                    assertWalked(after, what);
                } else if (c.option() == DeidOption.RETAIN_LONGITUDINAL_MODIFIED_DATES && vr.matches("DA|DT")) {
                    assertEquals("20200325" + before.getSingleStringValueOrEmptyString().substring(8),
                            after.getSingleStringValueOrEmptyString(), what + ": shifted " + SHIFT + " days");
                } else {
                    assertSameValue(before, after, what); // a descriptor that holds no identifying value is kept
                }
            }
            default -> throw new AssertionError(what + ": undecided " + action);
        }
    }

    /** The choices as {@link DeidOptions.Choice#CONFORMANT} makes them. */
    private static Action decided(Action a, String vr) {
        return switch (a) {
            case X_OR_Z, X_OR_Z_OR_D -> Action.Z;
            case X_OR_D, Z_OR_D -> Action.D;
            case X_OR_Z_OR_U -> vr.matches("SQ|UI") ? Action.U : Action.Z;
            default -> a;
        };
    }

    /** Values the engine cannot make safe: binary or unknown VRs given a dummy, a UID or cleaning. */
    private static boolean refuses(Action a, String vr, DeidOption option) {
        boolean text = vr.matches("AE|AS|CS|DA|DS|DT|IS|LO|LT|PN|SH|ST|TM|UC|UI|UR|UT|SQ|US|SS|UL|SL|FL|FD");
        return switch (a) {
            case D -> !text;
            case U -> !vr.matches("UI|SQ");
            case C -> !(vr.matches("SQ|AE|CS|LO|LT|PN|SH|ST|UC|UT|UR")
                    || option == DeidOption.RETAIN_LONGITUDINAL_MODIFIED_DATES && vr.matches("DA|DT|TM"));
            default -> false;
        };
    }

    /** The nested sample's Patient's Name is emptied (Z), its Code Value (unlisted) kept. */
    private static void assertWalked(Attribute after, String what) {
        SequenceAttribute s = (SequenceAttribute) after;
        assertEquals(1, s.getNumberOfItems(), what + ": its item");
        AttributeList inner = s.getItem(0).getAttributeList();
        assertEquals(0, inner.get(TagFromName.PatientName).getVL(), what + ": nested Patient's Name emptied");
        assertEquals("CODE1", inner.get(TagFromName.CodeValue).getSingleStringValueOrEmptyString(), what);
    }

    private static void assertSameValue(Attribute before, Attribute after, String what) throws Exception {
        if (before instanceof SequenceAttribute) {
            assertWalked(after, what);
        } else if ("OW".equals(vrOf(before.getTag()))) {
            assertTrue(Arrays.equals(before.getShortValues(), after.getShortValues()), what);
        } else if (vrOf(before.getTag()).matches("OB|UN")) {
            assertTrue(Arrays.equals(before.getByteValues(), after.getByteValues()), what);
        } else {
            assertEquals(Arrays.asList(before.getStringValues()), Arrays.asList(after.getStringValues()), what);
        }
    }

    static AttributeTag tagOf(String tag) {
        String t = tag.replace("xxxx", "3000").replace("xx", "00").replace(",", "");
        return new AttributeTag(Integer.parseInt(t.substring(0, 4), 16), Integer.parseInt(t.substring(4), 16));
    }

    static String vrOf(AttributeTag tag) {
        byte[] vr = AttributeList.getDictionary().getValueRepresentationFromTag(tag);
        if (vr == null) {
            return "UN";
        }
        String name = ValueRepresentation.getAsString(vr);
        return "OX".equals(name) ? "OW" : name; // overlay and curve data: PixelMed makes them OW
    }

    /** An identifying-looking value of the VR (an unknown tag is UN, as an explicit VR file carries it). */
    static Attribute sample(AttributeTag tag, String vr) throws Exception {
        if ("SQ".equals(vr)) {
            SequenceAttribute s = new SequenceAttribute(tag);
            AttributeList item = new AttributeList();
            Attribute name = AttributeFactory.newAttribute(TagFromName.PatientName);
            name.addValue("DOE^JANE");
            item.put(name);
            Attribute code = AttributeFactory.newAttribute(TagFromName.CodeValue);
            code.addValue("CODE1");
            item.put(code);
            s.addItem(item);
            return s;
        }
        Attribute a = AttributeFactory.newAttribute(tag, vr.getBytes(StandardCharsets.US_ASCII));
        String value = switch (vr) {
            case "DA" -> "20200315";
            case "TM" -> "101010";
            case "DT" -> "20200315101010";
            case "UI" -> "1.2.826.0.1.3680043.9.7.1." + (tag.getGroup() << 16 | tag.getElement());
            case "AS" -> "045Y";
            case "DS", "IS", "US", "SS", "UL", "SL", "FL", "FD" -> "7";
            case "PN" -> "ROE^RICHARD";
            case "CS" -> "SOMECODE";
            case "AE" -> "SOMEAE";
            default -> null;
        };
        if (value != null) {
            a.addValue(value);
        } else if (Set.of("LO", "LT", "SH", "ST", "UC", "UT", "UR").contains(vr)) {
            a.addValue("some words");
        } else if ("OW".equals(vr)) {
            a.setValues(new short[] {1, 2, 3, 4});
        } else {
            a.setValues(new byte[] {1, 2, 3, 4});
        }
        return a;
    }
}
