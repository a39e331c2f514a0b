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
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The engine beyond the table: UIDs, private attributes, what is recorded, burned-in flags, refusals, options. */
class DeidEngineTest {

    private static final byte[] SECRET = "the secret of one test job".getBytes(StandardCharsets.US_ASCII);

    @Test
    void uidMapIsConsistentDeterministicAndA225Uid() {
        UidMap a = new UidMap(SECRET);
        String study = a.map("1.2.3.4.5");
        assertEquals(study, a.map("1.2.3.4.5"), "the same within a job");
        assertEquals(study, new UidMap(SECRET).map("1.2.3.4.5\0"), "a re-run with the secret maps the same");
        assertNotEquals(study, new UidMap("another job's secret....".getBytes(StandardCharsets.US_ASCII))
                .map("1.2.3.4.5"));
        assertNotEquals(study, a.map("1.2.3.4.6"));
        assertTrue(study.matches("2\\.25\\.[1-9][0-9]*") && study.length() <= 64, study);
        BigInteger uuid = new BigInteger(study.substring(5));
        assertTrue(uuid.bitLength() <= 128);
        assertEquals(8, uuid.shiftRight(76).intValue() & 0xF, "UUID version 8");
        assertThrows(IllegalArgumentException.class, () -> new UidMap(new byte[8]));
    }

    @Test
    void instancesOfAJobKeepTheirReferences() throws Exception {
        UidMap uids = new UidMap(SECRET);
        Deidentifier engine = new Deidentifier(DeidOptions.basic(), uids);
        AttributeList first = patient();
        AttributeList second = patient();
        set(second, TagFromName.SOPInstanceUID, "1.2.3.9.2");
        AttributeList ref = new AttributeList();
        set(ref, TagFromName.ReferencedSOPInstanceUID, "1.2.3.9.1");
        set(ref, TagFromName.ReferencedSOPClassUID, "1.2.840.10008.5.1.4.1.1.2");
        SequenceAttribute refs = new SequenceAttribute(TagFromName.SourceImageSequence);
        refs.addItem(ref);
        second.put(refs);

        AttributeList a = engine.deidentify(first).dataSet();
        AttributeList b = engine.deidentify(second).dataSet();
        assertEquals(value(a, TagFromName.StudyInstanceUID), value(b, TagFromName.StudyInstanceUID));
        assertNotEquals("1.2.3.9", value(a, TagFromName.StudyInstanceUID));
        AttributeList item = ((SequenceAttribute) b.get(TagFromName.SourceImageSequence)).getItem(0)
                .getAttributeList();
        assertEquals(value(a, TagFromName.SOPInstanceUID), value(item, TagFromName.ReferencedSOPInstanceUID),
                "a reference follows the instance it refers to");
        assertEquals("1.2.840.10008.5.1.4.1.1.2", value(item, TagFromName.ReferencedSOPClassUID), "classes kept");
        assertEquals("1.2.840.10008.5.1.4.1.1.2", value(a, TagFromName.SOPClassUID));
    }

    @Test
    void recordsWhatWasDone() throws Exception {
        AttributeList out = new Deidentifier(DeidOptions.basic().withDateShift(-30)
                .with(DeidOption.RETAIN_SAFE_PRIVATE, DeidOption.CLEAN_DESCRIPTORS), new UidMap(SECRET))
                .deidentify(patient()).dataSet();
        assertEquals("YES", value(out, TagFromName.PatientIdentityRemoved));
        assertFalse(value(out, TagFromName.DeidentificationMethod).isEmpty());
        SequenceAttribute codes = (SequenceAttribute) out.get(TagFromName.DeidentificationMethodCodeSequence);
        List<String> values = new java.util.ArrayList<>();
        for (int i = 0; i < codes.getNumberOfItems(); i++) {
            AttributeList item = codes.getItem(i).getAttributeList();
            assertEquals("DCM", value(item, TagFromName.CodingSchemeDesignator));
            values.add(value(item, TagFromName.CodeValue));
        }
        assertEquals(List.of("113100", "113111", "113107", "113105"), values);
        assertEquals("MODIFIED", value(out, TagFromName.LongitudinalTemporalInformationModified));
        assertEquals("20200214", value(out, TagFromName.StudyDate), "shifted 30 days earlier");
        assertEquals("REMOVED", value(new Deidentifier(DeidOptions.basic(), new UidMap(SECRET))
                .deidentify(patient()).dataSet(), TagFromName.LongitudinalTemporalInformationModified));
    }

    @Test
    void basicProfileRemovesNamesDatesAndPrivateAttributes() throws Exception {
        AttributeList source = patient();
        AttributeList out = new Deidentifier(DeidOptions.basic(), new UidMap(SECRET)).deidentify(source).dataSet();
        assertEquals(0, out.get(TagFromName.PatientName).getVL(), "Z");
        assertEquals("ANONYMIZED", value(out, TagFromName.PatientID), "Z/D: a dummy keeps any IOD conformant");
        assertEquals(0, out.get(TagFromName.StudyDate).getVL());
        assertEquals(0, out.get(TagFromName.InstitutionName).getVL(), "X/Z/D: empty");
        assertNull(out.get(TagFromName.StudyDescription), "X");
        assertNull(out.get(new AttributeTag(0x0019, 0x0010)), "private creator removed");
        assertNull(out.get(new AttributeTag(0x0019, 0x100C)), "private attribute removed");
        assertEquals("CT", value(out, TagFromName.Modality), "not in the table: kept");
        assertEquals("DOE^JOHN", value(source, TagFromName.PatientName), "the source is not changed");

        AttributeList minimal = new Deidentifier(DeidOptions.basic().withChoice(DeidOptions.Choice.MINIMAL),
                new UidMap(SECRET)).deidentify(source).dataSet();
        assertNull(minimal.get(TagFromName.InstitutionName), "X/Z/D: removed when minimal");
        assertEquals(0, minimal.get(TagFromName.PatientID).getVL(), "Z/D: empty when minimal");

        AttributeList pseudonymised = new Deidentifier(DeidOptions.basic().withPseudonym("SUBJECT^001", "S001"),
                new UidMap(SECRET)).deidentify(source).dataSet();
        assertEquals("SUBJECT^001", value(pseudonymised, TagFromName.PatientName));
        assertEquals("S001", value(pseudonymised, TagFromName.PatientID));
    }

    @Test
    void retainSafePrivateKeepsOnlyTheSafeList() throws Exception {
        AttributeList out = new Deidentifier(DeidOptions.basic().with(DeidOption.RETAIN_SAFE_PRIVATE),
                new UidMap(SECRET)).deidentify(patient()).dataSet();
        assertEquals("SIEMENS MR HEADER", value(out, new AttributeTag(0x0019, 0x0010)));
        assertEquals("1000", value(out, new AttributeTag(0x0019, 0x100C)), "B_value is safe");
        assertNull(out.get(new AttributeTag(0x0019, 0x1008)), "an unlisted element of the same block");
        assertNull(out.get(new AttributeTag(0x0029, 0x0010)), "an unlisted creator");
        assertNull(out.get(new AttributeTag(0x0029, 0x1010)));
    }

    @Test
    void sequencesAreWalkedAtEveryDepth() throws Exception {
        AttributeList source = patient();
        AttributeList inner = new AttributeList();
        set(inner, TagFromName.PatientName, "DOE^JOHN");
        set(inner, TagFromName.ReferencedSOPInstanceUID, "1.2.3.9.1");
        SequenceAttribute deep = new SequenceAttribute(TagFromName.ReferencedImageSequence);
        deep.addItem(inner);
        AttributeList middle = new AttributeList();
        middle.put(deep);
        set(middle, TagFromName.PersonName, "SMITH^ANNA");
        SequenceAttribute outer = new SequenceAttribute(TagFromName.ReferencedSeriesSequence);
        outer.addItem(middle);
        source.put(outer);
        UidMap uids = new UidMap(SECRET);
        AttributeList out = new Deidentifier(DeidOptions.basic(), uids).deidentify(source).dataSet();
        AttributeList m = ((SequenceAttribute) out.get(TagFromName.ReferencedSeriesSequence)).getItem(0)
                .getAttributeList();
        assertEquals("ANONYMIZED", value(m, TagFromName.PersonName), "D");
        AttributeList i = ((SequenceAttribute) m.get(TagFromName.ReferencedImageSequence)).getItem(0)
                .getAttributeList();
        assertEquals(0, i.get(TagFromName.PatientName).getVL());
        assertEquals(uids.map("1.2.3.9.1"), value(i, TagFromName.ReferencedSOPInstanceUID));
    }

    @Test
    void burnedInAnnotationIsFlagged() throws Exception {
        Deidentifier engine = new Deidentifier(DeidOptions.basic(), new UidMap(SECRET));
        AttributeList ct = patient();
        DeidResult r = engine.deidentify(ct);
        assertEquals(DeidResult.BurnedIn.ABSENT, r.burnedIn());
        assertFalse(r.pixelsNeedReview(), "a CT without the attribute");
        set(ct, TagFromName.Modality, "US");
        assertTrue(engine.deidentify(ct).pixelsNeedReview(), "ultrasound without the attribute");
        set(ct, TagFromName.BurnedInAnnotation, "NO");
        assertFalse(engine.deidentify(ct).pixelsNeedReview(), "ultrasound that says NO");
        set(ct, TagFromName.Modality, "CT");
        set(ct, TagFromName.BurnedInAnnotation, "YES");
        DeidResult yes = engine.deidentify(ct);
        assertEquals(DeidResult.BurnedIn.YES, yes.burnedIn());
        assertTrue(yes.pixelsNeedReview());
        assertEquals("YES", value(yes.dataSet(), TagFromName.BurnedInAnnotation), "flagged, not hidden");
    }

    @Test
    void whatCannotBeCleanedIsRefused() throws Exception {
        Deidentifier cleaning = new Deidentifier(DeidOptions.basic().with(DeidOption.CLEAN_DESCRIPTORS),
                new UidMap(SECRET));
        AttributeList clean = patient();
        assertEquals("CT CHEST", value(cleaning.deidentify(clean).dataSet(), TagFromName.StudyDescription));
        AttributeList named = patient();
        set(named, TagFromName.StudyDescription, "CT chest for Doe");
        DeidRefused e = assertThrows(DeidRefused.class, () -> cleaning.deidentify(named));
        assertEquals("(0x0008,0x1030)", e.attribute());

        AttributeList pdf = patient();
        Attribute doc = AttributeFactory.newAttribute(TagFromName.EncapsulatedDocument);
        doc.setValues(new byte[] {'%', 'P', 'D', 'F'});
        pdf.put(doc);
        assertThrows(DeidRefused.class, () -> new Deidentifier(DeidOptions.basic(), new UidMap(SECRET))
                .deidentify(pdf), "an encapsulated document (D) has no dummy here");

        AttributeList overlay = patient();
        Attribute bits = AttributeFactory.newAttribute(new AttributeTag(0x6000, 0x3000),
                "OW".getBytes(StandardCharsets.US_ASCII));
        bits.setValues(new short[] {1, 2});
        overlay.put(bits);
        assertNull(new Deidentifier(DeidOptions.basic(), new UidMap(SECRET)).deidentify(overlay).dataSet()
                .get(new AttributeTag(0x6000, 0x3000)), "X: overlay removed");
        assertThrows(DeidRefused.class, () -> new Deidentifier(DeidOptions.basic().with(DeidOption.CLEAN_GRAPHICS),
                new UidMap(SECRET)).deidentify(overlay), "an overlay bitmap cannot be cleaned");
    }

    @Test
    void optionsThatExcludeEachOtherAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> DeidOptions.basic().withDateShift(5)
                .with(DeidOption.RETAIN_LONGITUDINAL_FULL_DATES));
        assertThrows(IllegalArgumentException.class, () -> DeidOptions.basic().withDummyText("far too long dummy"));
    }

    static AttributeList patient() throws Exception {
        AttributeList list = new AttributeList();
        set(list, TagFromName.SpecificCharacterSet, "ISO_IR 100");
        set(list, TagFromName.SOPClassUID, "1.2.840.10008.5.1.4.1.1.2");
        set(list, TagFromName.SOPInstanceUID, "1.2.3.9.1");
        set(list, TagFromName.StudyInstanceUID, "1.2.3.9");
        set(list, TagFromName.SeriesInstanceUID, "1.2.3.9.0");
        set(list, TagFromName.Modality, "CT");
        set(list, TagFromName.PatientName, "DOE^JOHN");
        set(list, TagFromName.PatientID, "MRN12345");
        set(list, TagFromName.StudyDate, "20200315");
        set(list, TagFromName.StudyDescription, "CT CHEST");
        set(list, TagFromName.InstitutionName, "General Hospital");
        set(list, new AttributeTag(0x0019, 0x0010), "SIEMENS MR HEADER", "LO");
        set(list, new AttributeTag(0x0019, 0x100C), "1000", "IS");
        set(list, new AttributeTag(0x0019, 0x1008), "DOE JOHN", "LO");
        set(list, new AttributeTag(0x0029, 0x0010), "ACME PRIVATE", "LO");
        set(list, new AttributeTag(0x0029, 0x1010), "MRN12345", "LO");
        return list;
    }

    private static void set(AttributeList list, AttributeTag tag, String value) throws Exception {
        Attribute a = AttributeFactory.newAttribute(tag);
        a.addValue(value);
        list.put(a);
    }

    private static void set(AttributeList list, AttributeTag tag, String value, String vr) throws Exception {
        Attribute a = AttributeFactory.newAttribute(tag, vr.getBytes(StandardCharsets.US_ASCII));
        a.addValue(value);
        list.put(a);
    }

    private static String value(AttributeList list, AttributeTag tag) {
        assertNotNull(list.get(tag), tag + " present");
        return list.get(tag).getSingleStringValueOrEmptyString();
    }
}
