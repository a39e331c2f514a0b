package org.medjava.store.core.testsupport;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.CodedSequenceItem;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.FileMetaInformation;
import com.pixelmed.dicom.SequenceAttribute;
import com.pixelmed.dicom.SequenceItem;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.dicom.TransferSyntax;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.medjava.store.testkit.TestStudy;

/**
 * A Key Object Selection Document as a PACS sends one to reject instances (IHE IOCM): its title a code of CID 7011
 * (113001 "Rejected for Quality Reasons", …) or any other (113000 "Of Interest" is no rejection), its evidence the
 * instances of one series of one study.
 */
public final class KeyObjectNote {

    private KeyObjectNote() {
    }

    /** Writes the note to {@code file} (Part 10, Explicit VR Little Endian) and returns its SOP Instance UID. */
    public static String write(Path file, String patientId, String studyUid, String code, String meaning,
            String seriesUid, String sopClassUid, List<String> sopInstanceUids) throws IOException {
        try {
            AttributeList list = new AttributeList();
            String sop = TestStudy.newUid();
            put(list, TagFromName.SOPClassUID, "1.2.840.10008.5.1.4.1.1.88.59");
            put(list, TagFromName.SOPInstanceUID, sop);
            put(list, TagFromName.PatientID, patientId);
            put(list, TagFromName.PatientName, "Rejection^Note");
            put(list, TagFromName.StudyInstanceUID, studyUid);
            put(list, TagFromName.SeriesInstanceUID, TestStudy.newUid());
            put(list, TagFromName.Modality, "KO");
            put(list, TagFromName.SeriesNumber, "99");
            put(list, TagFromName.InstanceNumber, "1");
            put(list, TagFromName.ValueType, "CONTAINER");
            SequenceAttribute concept = new SequenceAttribute(TagFromName.ConceptNameCodeSequence);
            concept.addItem(new CodedSequenceItem(code, "DCM", meaning).getAttributeList());
            list.put(concept);
            AttributeList sopItem;
            SequenceAttribute sops = new SequenceAttribute(TagFromName.ReferencedSOPSequence);
            for (String uid : sopInstanceUids) {
                sopItem = new AttributeList();
                put(sopItem, TagFromName.ReferencedSOPClassUID, sopClassUid);
                put(sopItem, TagFromName.ReferencedSOPInstanceUID, uid);
                sops.addItem(sopItem);
            }
            AttributeList seriesItem = new AttributeList();
            put(seriesItem, TagFromName.SeriesInstanceUID, seriesUid);
            seriesItem.put(sops);
            SequenceAttribute series = new SequenceAttribute(TagFromName.ReferencedSeriesSequence);
            series.addItem(seriesItem);
            AttributeList studyItem = new AttributeList();
            put(studyItem, TagFromName.StudyInstanceUID, studyUid);
            studyItem.put(series);
            SequenceAttribute evidence = new SequenceAttribute(TagFromName.CurrentRequestedProcedureEvidenceSequence);
            evidence.addItem(new SequenceItem(studyItem));
            list.put(evidence);
            FileMetaInformation.addFileMetaInformation(list, TransferSyntax.ExplicitVRLittleEndian, "MEDJAVATEST");
            list.write(file.toFile(), TransferSyntax.ExplicitVRLittleEndian, true, true);
            return sop;
        } catch (DicomException e) {
            throw new IOException("cannot write the key object note: " + e.getMessage(), e);
        }
    }

    private static void put(AttributeList list, AttributeTag tag, String value) throws DicomException {
        Attribute a = AttributeList.getDictionary().getValueRepresentationFromTag(tag) == null ? null
                : com.pixelmed.dicom.AttributeFactory.newAttribute(tag);
        a.addValue(value);
        list.put(a);
    }
}
