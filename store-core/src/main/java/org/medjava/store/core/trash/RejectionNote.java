package org.medjava.store.core.trash;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.SequenceAttribute;
import com.pixelmed.dicom.SequenceItem;
import com.pixelmed.dicom.TagFromName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.medjava.store.core.index.TrashScope;

/**
 * An IOCM rejection note (IHE Imaging Object Change Management; PS3.16 CID 7011): a Key Object Selection Document
 * whose Concept Name is a rejection code — "Rejected for Quality Reasons" and the others — and whose Current
 * Requested Procedure Evidence Sequence names the rejected instances. Received like any object (C-STORE, STOW-RS),
 * it moves what it names to the trash.
 *
 * @param title    the rejection's code meaning, e.g. "Rejected for Quality Reasons"
 * @param rejected the instances it names, each within its series and study
 */
public record RejectionNote(String title, List<TrashScope> rejected) {
    /** Key Object Selection Document Storage. */
    public static final String KEY_OBJECT_SELECTION = "1.2.840.10008.5.1.4.1.1.88.59";
    /** The rejection titles (DCM codes) of CID 7011, by code value. */
    static final Map<String, String> TITLES = Map.of(
            "113001", "Rejected for Quality Reasons",
            "113037", "Rejected for Patient Safety Reasons",
            "113038", "Incorrect Modality Worklist Entry",
            "113039", "Data Retention Policy Expired");

    /** The rejection note {@code dataSet} is, if it is one (a KOS with a rejection title naming instances). */
    public static Optional<RejectionNote> of(AttributeList dataSet) {
        if (!KEY_OBJECT_SELECTION.equals(text(dataSet, TagFromName.SOPClassUID))) {
            return Optional.empty();
        }
        SequenceItem concept = first(dataSet, TagFromName.ConceptNameCodeSequence);
        if (concept == null || !"DCM".equals(text(concept.getAttributeList(), TagFromName.CodingSchemeDesignator))) {
            return Optional.empty();
        }
        String title = TITLES.get(text(concept.getAttributeList(), TagFromName.CodeValue));
        if (title == null) {
            return Optional.empty();
        }
        List<TrashScope> rejected = new ArrayList<>();
        for (SequenceItem study : items(dataSet, TagFromName.CurrentRequestedProcedureEvidenceSequence)) {
            String studyUid = text(study.getAttributeList(), TagFromName.StudyInstanceUID);
            for (SequenceItem series : items(study.getAttributeList(), TagFromName.ReferencedSeriesSequence)) {
                String seriesUid = text(series.getAttributeList(), TagFromName.SeriesInstanceUID);
                for (SequenceItem sop : items(series.getAttributeList(), TagFromName.ReferencedSOPSequence)) {
                    String sopUid = text(sop.getAttributeList(), TagFromName.ReferencedSOPInstanceUID);
                    try {
                        rejected.add(TrashScope.instance(studyUid, seriesUid, sopUid));
                    } catch (RuntimeException e) { // a reference without its UIDs names nothing
                        continue;
                    }
                }
            }
        }
        return rejected.isEmpty() ? Optional.empty() : Optional.of(new RejectionNote(title, List.copyOf(rejected)));
    }

    private static List<SequenceItem> items(AttributeList list, com.pixelmed.dicom.AttributeTag tag) {
        Attribute a = list.get(tag);
        List<SequenceItem> items = new ArrayList<>();
        if (a instanceof SequenceAttribute s) {
            for (int i = 0; i < s.getNumberOfItems(); i++) {
                items.add(s.getItem(i));
            }
        }
        return items;
    }

    private static SequenceItem first(AttributeList list, com.pixelmed.dicom.AttributeTag tag) {
        List<SequenceItem> items = items(list, tag);
        return items.isEmpty() ? null : items.get(0);
    }

    private static String text(AttributeList list, com.pixelmed.dicom.AttributeTag tag) {
        return Attribute.getSingleStringValueOrNull(list, tag);
    }
}
