package org.medjava.store.net.dimse;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.network.Association;
import com.pixelmed.network.DicomNetworkException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.medjava.codec.dicom.DicomPreScan;
import org.medjava.codec.dicom.DicomStructureException;
import org.medjava.store.core.audit.Caller;

/** One request being answered on an association: what was asked, by whom, and the way back. */
final class Exchange {

    private final Association association;
    private final Request request;
    private final RequestReceiver received;
    private final Caller caller;

    Exchange(Association association, Request request, RequestReceiver received, Caller caller) {
        this.association = association;
        this.request = request;
        this.received = received;
        this.caller = caller;
    }

    /** Who asked: the association's calling AE title and address, the audit trail's requestor. */
    Caller caller() {
        return caller;
    }

    Request request() {
        return request;
    }

    Association association() {
        return association;
    }

    String callingAe() {
        return association.getCallingAETitle();
    }

    RequestReceiver received() {
        return received;
    }

    /** The transfer syntax of the presentation context the request arrived on. */
    String transferSyntax() throws DicomNetworkException {
        return association.getTransferSyntaxForPresentationContextID(request.presentationContextId());
    }

    /** The request's data set read as an identifier (C-FIND, C-MOVE, C-GET). */
    AttributeList identifier() throws DicomException, IOException, DicomNetworkException {
        if (received.dataFailure() != null) {
            throw new DicomException("the identifier could not be received: " + received.dataFailure().getMessage());
        }
        try {
            DicomPreScan.checkDataSet(received.identifier(), transferSyntax()); // before PixelMed recurses into it
        } catch (DicomStructureException e) {
            throw new DicomException("the identifier is refused: " + e.getMessage());
        }
        AttributeList list = new AttributeList();
        list.read(new DicomInputStream(new ByteArrayInputStream(received.identifier()), transferSyntax(), false));
        return list;
    }

    /** Sends a response command, with a data set (already encoded in the context's syntax) or none. */
    void send(DimseMessages.Response response, byte[] dataSet) throws DicomNetworkException, IOException {
        byte pcid = request.presentationContextId();
        association.send(pcid, response.withDataSet(dataSet != null).bytes(), null);
        if (dataSet != null) {
            // fragmented to the peer's maximum PDU length
            try (java.io.OutputStream out = association.getAssociationOutputStream(pcid)) {
                out.write(dataSet);
            }
        }
    }

    /** Sends a response without a data set. */
    void send(DimseMessages.Response response) throws DicomNetworkException, IOException {
        send(response, null);
    }

    /** A response to this request with {@code status}. */
    DimseMessages.Response response(int status) {
        return DimseMessages.response(request.commandField(), request.sopClassUid(), request.messageId(), status);
    }
}
