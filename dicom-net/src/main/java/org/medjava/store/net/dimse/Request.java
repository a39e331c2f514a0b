package org.medjava.store.net.dimse;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.dicom.TransferSyntax;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * A DIMSE request command as received: what it asks, for which SOP class and instance, and whether a data set
 * follows.
 *
 * @param presentationContextId the context it arrived on (the response goes back on it)
 */
record Request(int commandField, int messageId, String sopClassUid, String sopInstanceUid, String moveDestination,
               boolean hasDataSet, byte presentationContextId) {

    static Request parse(byte[] command, byte presentationContextId) throws DicomException, IOException {
        AttributeList list = new AttributeList();
        list.read(new DicomInputStream(new ByteArrayInputStream(command), TransferSyntax.ImplicitVRLittleEndian,
                false));
        int field = Attribute.getSingleIntegerValueOrDefault(list, TagFromName.CommandField, -1);
        int messageId = Attribute.getSingleIntegerValueOrDefault(list, TagFromName.MessageID, 0);
        int dataSetType = Attribute.getSingleIntegerValueOrDefault(list, TagFromName.CommandDataSetType,
                DimseMessages.NO_DATA_SET);
        return new Request(field, messageId, string(list, TagFromName.AffectedSOPClassUID),
                string(list, TagFromName.AffectedSOPInstanceUID), string(list, TagFromName.MoveDestination),
                dataSetType != DimseMessages.NO_DATA_SET, presentationContextId);
    }

    private static String string(AttributeList list, com.pixelmed.dicom.AttributeTag tag) {
        return Attribute.getSingleStringValueOrEmptyString(list, tag).trim();
    }

    String name() {
        return switch (commandField) {
            case DimseMessages.C_STORE_RQ -> "C-STORE";
            case DimseMessages.C_FIND_RQ -> "C-FIND";
            case DimseMessages.C_MOVE_RQ -> "C-MOVE";
            case DimseMessages.C_GET_RQ -> "C-GET";
            case DimseMessages.C_ECHO_RQ -> "C-ECHO";
            case DimseMessages.C_CANCEL_RQ -> "C-CANCEL";
            default -> "command 0x" + Integer.toHexString(commandField);
        };
    }
}
