package org.medjava.store.core.testsupport;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeFactory;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.FileMetaInformation;
import com.pixelmed.dicom.OtherByteAttribute;
import com.pixelmed.dicom.SOPClass;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.dicom.TransferSyntax;
import java.io.ByteArrayOutputStream;
import java.util.Random;
import org.medjava.store.testkit.TestStudy;

/** Big synthetic DICOM objects for tests of large transfers (uploads that resume, downloads cut short). */
public final class LargeDicom {
    private LargeDicom() {
    }

    /** A Secondary Capture of side × side random 8-bit pixels, Explicit VR Little Endian, in a new study. */
    public static byte[] secondaryCapture(String seriesInstanceUid, int side) throws Exception {
        AttributeList list = new AttributeList();
        put(list, TagFromName.SOPClassUID, SOPClass.SecondaryCaptureImageStorage);
        put(list, TagFromName.SOPInstanceUID, TestStudy.newUid());
        put(list, TagFromName.StudyInstanceUID, TestStudy.newUid());
        put(list, TagFromName.SeriesInstanceUID, seriesInstanceUid);
        put(list, TagFromName.PatientID, "RESUMABLE-1");
        put(list, TagFromName.PatientName, "Resumable^Upload");
        put(list, TagFromName.Modality, "OT");
        put(list, TagFromName.ConversionType, "WSD");
        put(list, TagFromName.PhotometricInterpretation, "MONOCHROME2");
        put(list, TagFromName.Rows, side);
        put(list, TagFromName.Columns, side);
        put(list, TagFromName.SamplesPerPixel, 1);
        put(list, TagFromName.BitsAllocated, 8);
        put(list, TagFromName.BitsStored, 8);
        put(list, TagFromName.HighBit, 7);
        put(list, TagFromName.PixelRepresentation, 0);
        byte[] pixels = new byte[side * side];
        new Random(42).nextBytes(pixels);
        OtherByteAttribute data = new OtherByteAttribute(TagFromName.PixelData);
        data.setValues(pixels);
        list.put(data);
        FileMetaInformation.addFileMetaInformation(list, TransferSyntax.ExplicitVRLittleEndian, "MEDJAVA");
        ByteArrayOutputStream out = new ByteArrayOutputStream(side * side + 4096);
        list.write(out, TransferSyntax.ExplicitVRLittleEndian, true, true);
        return out.toByteArray();
    }

    private static void put(AttributeList list, AttributeTag tag, String value) throws Exception {
        Attribute a = AttributeFactory.newAttribute(tag);
        a.addValue(value);
        list.put(a);
    }

    private static void put(AttributeList list, AttributeTag tag, int value) throws Exception {
        Attribute a = AttributeFactory.newAttribute(tag);
        a.addValue(value);
        list.put(a);
    }
}
