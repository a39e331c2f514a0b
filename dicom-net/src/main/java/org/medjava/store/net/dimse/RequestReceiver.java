package org.medjava.store.net.dimse;

import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomOutputStream;
import com.pixelmed.dicom.FileMetaInformation;
import com.pixelmed.dicom.TransferSyntax;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.network.Association;
import com.pixelmed.network.CompositeResponseHandler;
import com.pixelmed.network.DicomNetworkException;
import com.pixelmed.network.PDataPDU;
import com.pixelmed.network.PresentationDataValue;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Receives one DIMSE request from PixelMed's association: the command, then its data set if one follows. A C-STORE
 * data set is streamed into a staging file as a Part 10 file (file meta information from the command and the
 * presentation context, then the data set exactly as it arrived); any other data set (an identifier) is kept in
 * memory, up to {@value #MAX_IDENTIFIER} bytes. A failure to write is remembered, and the rest of the data set is
 * still read, so that the association stays in step and the request can be answered with a failure status.
 *
 * <p>It extends {@link CompositeResponseHandler} only because that is PixelMed's one subclass of
 * {@code ReceivedDataHandler} with a public constructor (the base class's is package-private); everything it does
 * is overridden.
 */
final class RequestReceiver extends CompositeResponseHandler {

    static final int MAX_IDENTIFIER = 1 << 20;

    /** Where C-STORE data sets go. */
    interface Staging {
        Path newFile() throws IOException;
    }

    private final Staging staging;
    private final ByteArrayOutputStream command = new ByteArrayOutputStream(256);
    private Request request;
    private ByteArrayOutputStream identifier;
    private OutputStream fileOut;
    private Path file;
    private Exception dataFailure;
    private boolean dataComplete;

    RequestReceiver(Staging staging) {
        this.staging = staging;
    }

    @Override
    public void sendPDataIndication(PDataPDU pdata, Association association) throws DicomNetworkException,
            DicomException, IOException {
        for (Object o : pdata.getPDVList()) {
            PresentationDataValue pdv = (PresentationDataValue) o;
            if (pdv.isCommand()) {
                command(pdv);
            } else {
                data(pdv, association);
            }
        }
    }

    private void command(PresentationDataValue pdv) throws DicomException, IOException, DicomNetworkException {
        if (request != null) {
            throw new DicomNetworkException("a new command arrived before the data set of " + request.name());
        }
        command.write(pdv.getValue());
        if (pdv.isLastFragment()) {
            request = Request.parse(command.toByteArray(), pdv.getPresentationContextID());
            if (!request.hasDataSet()) {
                setDone(true);
            }
        }
    }

    private void data(PresentationDataValue pdv, Association association) throws DicomNetworkException {
        if (request == null) {
            throw new DicomNetworkException("a data set arrived before its command");
        }
        if (dataFailure == null) {
            try {
                write(pdv.getValue(), association);
            } catch (IOException | DicomException | RuntimeException e) {
                dataFailure = e;
                closeQuietly();
            }
        }
        if (pdv.isLastFragment()) {
            try {
                if (fileOut != null) {
                    fileOut.close();
                }
            } catch (IOException e) {
                dataFailure = dataFailure == null ? e : dataFailure;
            }
            fileOut = null;
            dataComplete = true;
            setDone(true);
        }
    }

    private void write(byte[] value, Association association) throws IOException, DicomException,
            DicomNetworkException {
        if (request.commandField() != DimseMessages.C_STORE_RQ) {
            if (identifier == null) {
                identifier = new ByteArrayOutputStream(1024);
            }
            if (identifier.size() + value.length > MAX_IDENTIFIER) {
                throw new IOException("the identifier is larger than " + MAX_IDENTIFIER + " bytes");
            }
            identifier.write(value);
            return;
        }
        if (fileOut == null) {
            file = staging.newFile();
            fileOut = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
            fileOut.write(fileMeta(association));
        }
        fileOut.write(value);
    }

    /** Preamble, "DICM" and the file meta information for the object being received. */
    private byte[] fileMeta(Association association) throws DicomException, IOException, DicomNetworkException {
        String ts = association.getTransferSyntaxForPresentationContextID(request.presentationContextId());
        FileMetaInformation meta = new FileMetaInformation(request.sopClassUid(), request.sopInstanceUid(), ts,
                association.getCallingAETitle());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
        DicomOutputStream out = new DicomOutputStream(bytes, TransferSyntax.ExplicitVRLittleEndian, null);
        meta.getAttributeList().write(out);
        out.close();
        return bytes.toByteArray();
    }

    @Override
    protected void evaluateStatusAndSetSuccess(AttributeList list) {
        // not a response handler: sendPDataIndication is overridden, this is never called
    }

    Request request() {
        return request;
    }

    /** The received C-STORE data set as a Part 10 file, or null when none was received completely. */
    Path stagedFile() {
        return dataComplete && dataFailure == null ? file : null;
    }

    byte[] identifier() {
        return identifier == null ? new byte[0] : identifier.toByteArray();
    }

    /** Why the data set could not be kept, or null. */
    Exception dataFailure() {
        return dataFailure;
    }

    /** Drops whatever was received (an interrupted association, or a request that was answered). */
    void discard() {
        closeQuietly();
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // the staging directory is emptied at the next start
            }
        }
    }

    private void closeQuietly() {
        if (fileOut != null) {
            try {
                fileOut.close();
            } catch (IOException e) {
                // the file is discarded anyway
            }
            fileOut = null;
        }
    }
}
