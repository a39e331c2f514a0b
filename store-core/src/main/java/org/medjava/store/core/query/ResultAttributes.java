package org.medjava.store.core.query;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeFactory;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomDictionary;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.SpecificCharacterSet;
import com.pixelmed.dicom.TagFromName;
import java.util.List;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.PatientSummary;
import org.medjava.store.core.index.SeriesSummary;
import org.medjava.store.core.index.StudySummary;

/**
 * Query results as DICOM attributes (what C-FIND returns in its identifiers and QIDO-RS in DICOM JSON): the
 * attributes the index keeps for each level, and the computed ones (numbers of related studies, series and
 * instances, ModalitiesInStudy). Strings are encoded as UTF-8 (ISO_IR 192) when written.
 */
public final class ResultAttributes {

    static final SpecificCharacterSet UTF8 = new SpecificCharacterSet(new String[] {"ISO_IR 192"});

    private ResultAttributes() {
    }

    public static AttributeList of(PatientSummary p) {
        AttributeList list = new AttributeList();
        patient(list, p.patientId(), p.issuerOfPatientId(), p.patientName(), p.patientBirthDate(), p.patientSex());
        put(list, TagFromName.NumberOfPatientRelatedStudies, p.numberOfPatientRelatedStudies());
        put(list, new AttributeTag(0x0020, 0x1202), p.numberOfPatientRelatedSeries());
        put(list, new AttributeTag(0x0020, 0x1204), p.numberOfPatientRelatedInstances());
        return list;
    }

    public static AttributeList of(StudySummary s) {
        AttributeList list = new AttributeList();
        patient(list, s.patientId(), s.issuerOfPatientId(), s.patientName(), s.patientBirthDate(), s.patientSex());
        put(list, TagFromName.StudyInstanceUID, s.studyInstanceUid());
        put(list, TagFromName.StudyDate, s.studyDate());
        put(list, TagFromName.StudyTime, s.studyTime());
        put(list, TagFromName.AccessionNumber, s.accessionNumber());
        put(list, TagFromName.StudyID, s.studyId());
        put(list, TagFromName.StudyDescription, s.studyDescription());
        put(list, TagFromName.ReferringPhysicianName, s.referringPhysicianName());
        put(list, TagFromName.ModalitiesInStudy, s.modalitiesInStudy());
        put(list, TagFromName.NumberOfStudyRelatedSeries, s.numberOfStudyRelatedSeries());
        put(list, TagFromName.NumberOfStudyRelatedInstances, s.numberOfStudyRelatedInstances());
        return list;
    }

    public static AttributeList of(SeriesSummary s) {
        AttributeList list = new AttributeList();
        put(list, TagFromName.StudyInstanceUID, s.studyInstanceUid());
        put(list, TagFromName.SeriesInstanceUID, s.seriesInstanceUid());
        put(list, TagFromName.Modality, s.modality());
        put(list, TagFromName.SeriesNumber, s.seriesNumber());
        put(list, TagFromName.SeriesDescription, s.seriesDescription());
        put(list, TagFromName.BodyPartExamined, s.bodyPartExamined());
        put(list, TagFromName.SeriesDate, s.seriesDate());
        put(list, TagFromName.NumberOfSeriesRelatedInstances, s.numberOfSeriesRelatedInstances());
        return list;
    }

    public static AttributeList of(InstanceSummary i) {
        AttributeList list = new AttributeList();
        put(list, TagFromName.PatientID, i.patientId());
        put(list, TagFromName.PatientName, i.patientName());
        put(list, TagFromName.StudyInstanceUID, i.studyInstanceUid());
        put(list, TagFromName.StudyDate, i.studyDate());
        put(list, TagFromName.StudyDescription, i.studyDescription());
        put(list, TagFromName.SeriesInstanceUID, i.seriesInstanceUid());
        put(list, TagFromName.Modality, i.modality());
        put(list, TagFromName.SeriesNumber, i.seriesNumber());
        put(list, TagFromName.SeriesDescription, i.seriesDescription());
        put(list, TagFromName.SOPInstanceUID, i.sopInstanceUid());
        put(list, TagFromName.SOPClassUID, i.sopClassUid());
        put(list, TagFromName.InstanceNumber, i.instanceNumber());
        put(list, TagFromName.Rows, i.rows());
        put(list, TagFromName.Columns, i.columns());
        put(list, TagFromName.NumberOfFrames, i.numberOfFrames());
        put(list, TagFromName.BitsAllocated, i.bitsAllocated());
        put(list, TagFromName.PhotometricInterpretation, i.photometricInterpretation());
        put(list, new AttributeTag(0x0008, 0x3002), i.transferSyntaxUid()); // AvailableTransferSyntaxUID
        return list;
    }

    private static void patient(AttributeList list, String id, String issuer, String name, String birthDate,
            String sex) {
        put(list, TagFromName.PatientID, id);
        put(list, TagFromName.IssuerOfPatientID, issuer);
        put(list, TagFromName.PatientName, name);
        put(list, TagFromName.PatientBirthDate, birthDate);
        put(list, TagFromName.PatientSex, sex);
    }

    /** An empty attribute of the dictionary's VR for {@code tag} (a return key the store has no value for). */
    public static Attribute empty(AttributeTag tag) throws DicomException {
        byte[] vr = DicomDictionary.StandardDictionary.getValueRepresentationFromTag(tag);
        return vr == null ? null : AttributeFactory.newAttribute(tag, vr, UTF8);
    }

    /** Adds {@code value} (a String, a Number, or a List of Strings); null adds nothing. */
    static void put(AttributeList list, AttributeTag tag, Object value) {
        if (value == null || (value instanceof List<?> l && l.isEmpty())) {
            return;
        }
        try {
            Attribute a = empty(tag);
            if (value instanceof List<?> values) {
                for (Object v : values) {
                    a.addValue(v.toString());
                }
            } else {
                a.addValue(value.toString());
            }
            list.put(a);
        } catch (DicomException e) {
            throw new IllegalStateException("cannot build " + tag + ": " + e.getMessage(), e);
        }
    }
}
