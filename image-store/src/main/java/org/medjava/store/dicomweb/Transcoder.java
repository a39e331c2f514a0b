package org.medjava.store.dicomweb;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.FileMetaInformation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;

/**
 * Re-encodes an uncompressed object in another uncompressed transfer syntax (implicit/explicit little endian,
 * explicit big endian, deflated), for WADO-RS clients that ask for one. Compressed objects are not converted.
 */
final class Transcoder {
    static final Set<String> NATIVE = Set.of("1.2.840.10008.1.2", "1.2.840.10008.1.2.1", "1.2.840.10008.1.2.2",
            "1.2.840.10008.1.2.1.99");

    private Transcoder() {
    }

    static boolean canConvert(String from, String to) {
        return from.equals(to) || (NATIVE.contains(from) && NATIVE.contains(to));
    }

    static byte[] convert(Path file, String to, String sourceAe) throws IOException, DicomException {
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        list.read(file.toString());
        list.removeGroupLengthAttributes();
        list.removeMetaInformationHeaderAttributes();
        FileMetaInformation.addFileMetaInformation(list, to, sourceAe);
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(Integer.MAX_VALUE - 8,
                java.nio.file.Files.size(file) + 1024));
        list.write(out, to, true, true);
        return out.toByteArray();
    }
}
