package org.medjava.store.core.index;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeFactory;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomDictionary;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.FileMetaInformation;
import com.pixelmed.dicom.SpecificCharacterSet;
import com.pixelmed.dicom.TransferSyntax;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes modified copies of the small DICOM samples in {@code src/test/resources/dicom/} (other patients, studies,
 * series, dates): read with PixelMed, replace values by keyword, write as Explicit VR Little Endian in UTF-8.
 */
public final class TestDicom {
    private static final SpecificCharacterSet UTF8 = new SpecificCharacterSet(new String[] {"ISO_IR 192"});

    private final String resource;
    private final Map<String, String> values = new LinkedHashMap<>();
    private String sourceAe = "MEDJAVATEST";

    private TestDicom(String resource) {
        this.resource = resource;
    }

    /** A copy of CT_small.dcm (CT, 128×128, 16 bits). */
    public static TestDicom ct() {
        return new TestDicom("/dicom/CT_small.dcm");
    }

    /** A copy of MR_small.dcm (MR, 64×64, 16 bits). */
    public static TestDicom mr() {
        return new TestDicom("/dicom/MR_small.dcm");
    }

    /** Sets the attribute {@code keyword} (empty removes the value). */
    public TestDicom set(String keyword, String value) {
        values.put(keyword, value);
        return this;
    }

    public TestDicom patient(String id, String name) {
        return set("PatientID", id).set("PatientName", name);
    }

    public TestDicom study(String uid, String date) {
        return set("StudyInstanceUID", uid).set("StudyDate", date);
    }

    public TestDicom series(String uid, String modality, int number) {
        return set("SeriesInstanceUID", uid).set("Modality", modality).set("SeriesNumber", String.valueOf(number));
    }

    /** The Source AE Title of the file meta information (MEDJAVATEST unless set): who sent it by DICOM. */
    public TestDicom sourceAe(String aeTitle) {
        this.sourceAe = aeTitle;
        return this;
    }

    public TestDicom instance(String sopInstanceUid, int number) {
        return set("SOPInstanceUID", sopInstanceUid).set("InstanceNumber", String.valueOf(number));
    }

    /** Writes the copy to {@code file} (creating its directory) and returns it. */
    public Path writeTo(Path file) {
        try {
            AttributeList list = new AttributeList();
            try (InputStream in = TestDicom.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("no test resource " + resource);
                }
                try (DicomInputStream din = new DicomInputStream(new BufferedInputStream(in))) {
                    list.read(din);
                }
            }
            put(list, "SpecificCharacterSet", "ISO_IR 192");
            for (Map.Entry<String, String> e : values.entrySet()) {
                put(list, e.getKey(), e.getValue());
            }
            list.removeGroupLengthAttributes();
            list.removeMetaInformationHeaderAttributes();
            FileMetaInformation.addFileMetaInformation(list, TransferSyntax.ExplicitVRLittleEndian, sourceAe);
            Files.createDirectories(file.toAbsolutePath().getParent());
            list.write(file.toFile(), TransferSyntax.ExplicitVRLittleEndian, true, true);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (DicomException e) {
            throw new IllegalStateException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static void put(AttributeList list, String keyword, String value) throws DicomException {
        AttributeTag tag = DicomDictionary.StandardDictionary.getTagFromName(keyword);
        if (tag == null) {
            throw new IllegalArgumentException("unknown keyword " + keyword);
        }
        Attribute a = AttributeFactory.newAttribute(tag,
                DicomDictionary.StandardDictionary.getValueRepresentationFromTag(tag), UTF8);
        if (!value.isEmpty()) {
            a.addValue(value);
        }
        list.put(a);
    }
}
