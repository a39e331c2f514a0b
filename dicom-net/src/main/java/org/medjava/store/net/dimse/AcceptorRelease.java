package org.medjava.store.net.dimse;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;

/**
 * The store's side of an association release (PS3.8 7.2, 9.3.6-9.3.7): the peer's A-RELEASE-RQ is read, the
 * association is over, an A-RELEASE-RP is sent, and the connection is closed as soon as the peer closes its end
 * (or after {@value #ARTIM_MILLIS} ms if it does not). Done here rather than by PixelMed, whose acceptor waits a
 * fixed 5 s after its A-RELEASE-RP whatever the peer does (there is no setting for it): each released association
 * kept its place among the open ones for those 5 s, and a modality opening one association per image faster than
 * about 7 a second was refused ("local limit exceeded").
 */
final class AcceptorRelease {

    static final int A_RELEASE_RQ = 0x05;
    private static final byte[] A_RELEASE_RP = {0x06, 0, 0, 0, 0, 4, 0, 0, 0, 0};
    /** How long the peer may keep the connection open after the A-RELEASE-RP (PS3.8's ARTIM timer). */
    static final int ARTIM_MILLIS = 5_000;

    private AcceptorRelease() {
    }

    /**
     * Answers the A-RELEASE-RQ that is the socket's next PDU: runs {@code released} (the association no longer
     * counts as open) before the A-RELEASE-RP leaves, so that the peer's next association finds its place free, then
     * waits for the peer to close the connection; the caller closes it.
     *
     * @throws IOException when the PDU is not a well-formed A-RELEASE-RQ or the A-RELEASE-RP cannot be sent
     */
    static void answer(Socket socket, Runnable released) throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] header = new byte[6];
        in.readFully(header);
        long length = ((header[2] & 0xffL) << 24) | ((header[3] & 0xff) << 16) | ((header[4] & 0xff) << 8)
                | (header[5] & 0xff);
        if (header[0] != A_RELEASE_RQ || length != 4) {
            throw new IOException("not an A-RELEASE-RQ: PDU type 0x" + Integer.toHexString(header[0] & 0xff)
                    + ", " + length + " bytes");
        }
        in.readFully(new byte[4]);
        OutputStream out = socket.getOutputStream();
        released.run();
        out.write(A_RELEASE_RP);
        out.flush();
        try {
            socket.setSoTimeout(ARTIM_MILLIS);
            in.read(); // the peer's close (-1); anything else after a release is not worth waiting for either
        } catch (IOException e) {
            // the peer kept the connection open (timeout) or reset it, or the server is closing: closed anyway
        }
    }
}
