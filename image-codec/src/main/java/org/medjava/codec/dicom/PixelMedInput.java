package org.medjava.codec.dicom;

import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.TransferSyntax;
import java.io.IOException;
import java.io.InputStream;

/**
 * A Part 10 stream for PixelMed that also reads the transfer syntaxes PixelMed (2022) predates: it takes an
 * unknown UID for native explicit VR little endian, so an HTJ2K object's encapsulated Pixel Data came out as no
 * frames at all. HTJ2K is encapsulated explicit VR little endian like JPEG 2000, whose reading PixelMed knows;
 * the frames are then decoded by {@link Jpeg2000} by the object's own transfer syntax, never by PixelMed.
 */
public final class PixelMedInput {

    private PixelMedInput() {
    }

    public static DicomInputStream open(InputStream in) throws IOException {
        return new DicomInputStream(in) {
            @Override
            public void setTransferSyntaxToReadDataSet(TransferSyntax ts) {
                super.setTransferSyntaxToReadDataSet(ts != null && Jpeg2000.isHtj2k(ts.getUID())
                        ? new TransferSyntax(Jpeg2000.LOSSLESS) : ts);
            }
        };
    }
}
