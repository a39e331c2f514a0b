package org.medjava.store.net.dimse;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The first PDU of an association, read before PixelMed sees it so that the store can refuse callers it does not
 * know with the reason PS3.8 defines (PixelMed's acceptor checks only the called AE title). Only the fixed part of
 * the A-ASSOCIATE-RQ is interpreted; the whole PDU is kept to be replayed.
 *
 * @param pdu the PDU as read, header included
 */
record AssociationRequest(byte[] pdu, String calledAe, String callingAe) {

    static final int A_ASSOCIATE_RQ = 0x01;
    private static final int A_ASSOCIATE_RJ = 0x03;
    /** An A-ASSOCIATE-RQ holds a few hundred bytes; anything this large is not one. */
    private static final int MAX_LENGTH = 1 << 20;

    /** PS3.8 9.3.4: result and source/reason of an A-ASSOCIATE-RJ. */
    enum Rejection {
        /** rejected-permanent, DICOM UL service-user, no-reason-given. */
        NO_REASON(1, 1, 1),
        /** rejected-permanent, DICOM UL service-user, calling-AE-title-not-recognized. */
        CALLING_AE_NOT_RECOGNIZED(1, 1, 3),
        /** rejected-permanent, DICOM UL service-user, called-AE-title-not-recognized. */
        CALLED_AE_NOT_RECOGNIZED(1, 1, 7),
        /** rejected-transient, DICOM UL service-provider (presentation related), local-limit-exceeded. */
        LOCAL_LIMIT_EXCEEDED(2, 3, 2);

        final int result;
        final int source;
        final int reason;

        Rejection(int result, int source, int reason) {
            this.result = result;
            this.source = source;
            this.reason = reason;
        }
    }

    /**
     * Reads one PDU.
     *
     * @throws IOException when the connection ends or the PDU is not an A-ASSOCIATE-RQ
     */
    static AssociationRequest read(InputStream input) throws IOException {
        DataInputStream in = new DataInputStream(input);
        byte[] header = new byte[6];
        in.readFully(header);
        int type = header[0] & 0xff;
        long length = ((header[2] & 0xffL) << 24) | ((header[3] & 0xff) << 16) | ((header[4] & 0xff) << 8)
                | (header[5] & 0xff);
        if (type != A_ASSOCIATE_RQ) {
            throw new IOException("the first PDU is of type 0x" + Integer.toHexString(type)
                    + ", not an A-ASSOCIATE-RQ");
        }
        if (length < 68 || length > MAX_LENGTH) {
            throw new IOException("an A-ASSOCIATE-RQ of " + length + " bytes");
        }
        byte[] pdu = new byte[6 + (int) length];
        System.arraycopy(header, 0, pdu, 0, 6);
        in.readFully(pdu, 6, (int) length);
        return new AssociationRequest(pdu, aeTitle(pdu, 10), aeTitle(pdu, 26));
    }

    private static String aeTitle(byte[] pdu, int offset) {
        return new String(pdu, offset, 16, StandardCharsets.US_ASCII).trim();
    }

    /** Sends an A-ASSOCIATE-RJ (the caller then closes the connection). */
    static void reject(OutputStream out, Rejection rejection) throws IOException {
        out.write(new byte[] {A_ASSOCIATE_RJ, 0, 0, 0, 0, 4, 0, (byte) rejection.result, (byte) rejection.source,
                (byte) rejection.reason});
        out.flush();
    }
}
