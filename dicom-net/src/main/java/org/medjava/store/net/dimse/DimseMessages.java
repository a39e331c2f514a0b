package org.medjava.store.net.dimse;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.AttributeTagAttribute;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomOutputStream;
import com.pixelmed.dicom.LongStringAttribute;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.dicom.TransferSyntax;
import com.pixelmed.dicom.UniqueIdentifierAttribute;
import com.pixelmed.dicom.UnsignedLongAttribute;
import com.pixelmed.dicom.UnsignedShortAttribute;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Encodes the store's DIMSE response commands (implicit VR little endian, with the command group length) and
 * data sets (identifiers) in a presentation context's transfer syntax.
 */
final class DimseMessages {
    static final int C_STORE_RQ = 0x0001;
    static final int C_GET_RQ = 0x0010;
    static final int C_FIND_RQ = 0x0020;
    static final int C_MOVE_RQ = 0x0021;
    static final int C_ECHO_RQ = 0x0030;
    static final int C_CANCEL_RQ = 0x0FFF;
    static final int RESPONSE = 0x8000;
    static final int NO_DATA_SET = 0x0101;
    /** ErrorComment is LO: at most 64 characters. */
    private static final int ERROR_COMMENT_MAX = 64;

    private DimseMessages() {
    }

    /** A response to a request; add the optional parts with the builder's methods, then {@link Response#bytes()}. */
    static Response response(int requestCommand, String sopClassUid, int messageId, int status) {
        return new Response(requestCommand | RESPONSE, sopClassUid, messageId, status);
    }

    static final class Response {
        private final AttributeList list = new AttributeList();
        private final int status;
        private boolean dataSet;
        private String reason = "";

        private Response(int commandField, String sopClassUid, int messageId, int status) {
            this.status = status;
            if (sopClassUid != null && !sopClassUid.isEmpty()) {
                put(new UniqueIdentifierAttribute(TagFromName.AffectedSOPClassUID), sopClassUid);
            }
            putShort(TagFromName.CommandField, commandField);
            putShort(TagFromName.MessageIDBeingRespondedTo, messageId);
            putShort(TagFromName.Status, status);
        }

        int status() {
            return status;
        }

        Response sopInstance(String uid) {
            if (uid != null && !uid.isEmpty()) {
                put(new UniqueIdentifierAttribute(TagFromName.AffectedSOPInstanceUID), uid);
            }
            return this;
        }

        /**
         * The reason for a failure: on the wire cut to the 64 characters ErrorComment holds, kept whole for the
         * store's own use ({@link #reason()}).
         */
        Response errorComment(String comment) {
            if (comment != null && !comment.isEmpty()) {
                reason = comment;
                String c = comment.replace('\\', '/');
                put(new LongStringAttribute(TagFromName.ErrorComment),
                        c.length() <= ERROR_COMMENT_MAX ? c : c.substring(0, ERROR_COMMENT_MAX));
            }
            return this;
        }

        /** The whole reason given to {@link #errorComment}, not cut to ErrorComment's 64 characters; or "". */
        String reason() {
            return reason;
        }

        Response offendingElement(AttributeTag tag) {
            if (tag != null) {
                try {
                    AttributeTagAttribute a = new AttributeTagAttribute(TagFromName.OffendingElement);
                    a.addValue(tag);
                    list.put(a);
                } catch (DicomException e) {
                    throw new IllegalStateException(e);
                }
            }
            return this;
        }

        Response counts(int remaining, int completed, int failed, int warning) {
            if (remaining >= 0) {
                putShort(TagFromName.NumberOfRemainingSuboperations, remaining);
            }
            putShort(TagFromName.NumberOfCompletedSuboperations, completed);
            putShort(TagFromName.NumberOfFailedSuboperations, failed);
            putShort(TagFromName.NumberOfWarningSuboperations, warning);
            return this;
        }

        /** Whether a data set (identifier) follows the command. */
        Response withDataSet(boolean present) {
            this.dataSet = present;
            return this;
        }

        byte[] bytes() {
            putShort(TagFromName.CommandDataSetType, dataSet ? 0x0000 : NO_DATA_SET);
            try {
                byte[] body = encode(list, TransferSyntax.ImplicitVRLittleEndian);
                AttributeList withLength = new AttributeList();
                UnsignedLongAttribute length = new UnsignedLongAttribute(new AttributeTag(0x0000, 0x0000));
                length.addValue(body.length);
                withLength.put(length);
                byte[] head = encode(withLength, TransferSyntax.ImplicitVRLittleEndian);
                byte[] all = new byte[head.length + body.length];
                System.arraycopy(head, 0, all, 0, head.length);
                System.arraycopy(body, 0, all, head.length, body.length);
                return all;
            } catch (DicomException e) {
                throw new IllegalStateException("cannot encode a DIMSE response: " + e.getMessage(), e);
            }
        }

        private void putShort(AttributeTag tag, int value) {
            try {
                UnsignedShortAttribute a = new UnsignedShortAttribute(tag);
                a.addValue(value);
                list.put(a);
            } catch (DicomException e) {
                throw new IllegalStateException(e);
            }
        }

        private void put(com.pixelmed.dicom.Attribute a, String value) {
            try {
                a.addValue(value);
                list.put(a);
            } catch (DicomException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** A data set (no file meta information) in {@code transferSyntaxUid}. */
    static byte[] encode(AttributeList list, String transferSyntaxUid) throws DicomException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        try {
            DicomOutputStream dout = new DicomOutputStream(out, null, transferSyntaxUid);
            list.write(dout);
            dout.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory
        }
        return out.toByteArray();
    }
}
