package org.medjava.bench.ingest;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.TagFromName;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.medjava.codec.dicom.Uids;

/**
 * Copies of one DICOM file that a server stores as new instances: the same data set, pixel data and transfer syntax,
 * with a new Study, Series and SOP Instance UID (one study and series per batch, as a modality sends them), so that
 * every server receives the same bytes but never an instance it already has.
 */
final class InstanceCopies {
    private final AttributeList template;
    private final String transferSyntax;
    private final int size;

    InstanceCopies(byte[] file) throws IOException {
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        try (DicomInputStream in = new DicomInputStream(new ByteArrayInputStream(file))) {
            list.read(in);
        } catch (DicomException e) {
            throw new IOException("the ingest template is not readable DICOM: " + e.getMessage(), e);
        }
        this.template = list;
        this.transferSyntax = Attribute.getSingleStringValueOrEmptyString(list, TagFromName.TransferSyntaxUID);
        this.size = file.length;
    }

    /** The template's size in bytes. */
    int size() {
        return size;
    }

    /** Writes {@code count} copies into {@code dir} (created), one new study and series for all. */
    List<Path> write(Path dir, int count) throws IOException {
        Files.createDirectories(dir);
        String study = Uids.newUid();
        String series = Uids.newUid();
        List<Path> files = new ArrayList<>(count);
        ByteArrayOutputStream out = new ByteArrayOutputStream(size + 256);
        try {
            for (int i = 0; i < count; i++) {
                String sop = Uids.newUid();
                set(TagFromName.StudyInstanceUID, study);
                set(TagFromName.SeriesInstanceUID, series);
                set(TagFromName.SOPInstanceUID, sop);
                set(TagFromName.MediaStorageSOPInstanceUID, sop);
                out.reset();
                template.write(out, transferSyntax, true, true);
                files.add(Files.write(dir.resolve(i + ".dcm"), out.toByteArray()));
            }
        } catch (DicomException e) {
            throw new IOException("cannot write a copy of the ingest template: " + e.getMessage(), e);
        }
        return files;
    }

    private void set(AttributeTag tag, String value) throws DicomException {
        Attribute a = template.get(tag);
        a.removeValues();
        a.addValue(value);
    }
}
