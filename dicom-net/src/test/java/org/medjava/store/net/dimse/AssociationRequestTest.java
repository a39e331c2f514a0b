package org.medjava.store.net.dimse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Reading the A-ASSOCIATE-RQ's AE titles before PixelMed does, and the A-ASSOCIATE-RJ it may get. */
class AssociationRequestTest {

    /** The fixed part of an A-ASSOCIATE-RQ (PS3.8 9.3.2) followed by {@code extra} bytes of items. */
    static byte[] request(String called, String calling, int extra) {
        int length = 68 + extra;
        byte[] pdu = new byte[6 + length];
        pdu[0] = 0x01;
        pdu[2] = (byte) (length >>> 24);
        pdu[3] = (byte) (length >>> 16);
        pdu[4] = (byte) (length >>> 8);
        pdu[5] = (byte) length;
        pdu[7] = 0x01; // protocol version
        System.arraycopy(String.format("%-16s", called).getBytes(StandardCharsets.US_ASCII), 0, pdu, 10, 16);
        System.arraycopy(String.format("%-16s", calling).getBytes(StandardCharsets.US_ASCII), 0, pdu, 26, 16);
        return pdu;
    }

    @Test
    void readsBothTitlesAndKeepsTheWholePdu() throws IOException {
        byte[] pdu = request("MEDJAVA", "STORESCU", 40);
        ByteArrayInputStream in = new ByteArrayInputStream(concat(pdu, new byte[] {9, 9}));

        AssociationRequest rq = AssociationRequest.read(in);

        assertThat(rq.calledAe()).isEqualTo("MEDJAVA");
        assertThat(rq.callingAe()).isEqualTo("STORESCU");
        assertThat(rq.pdu()).isEqualTo(pdu);
        assertThat(in.available()).isEqualTo(2); // nothing of what follows was read
    }

    @Test
    void anythingElseIsRefused() {
        byte[] release = {0x05, 0, 0, 0, 0, 4, 0, 0, 0, 0};
        assertThatThrownBy(() -> AssociationRequest.read(new ByteArrayInputStream(release)))
                .hasMessageContaining("not an A-ASSOCIATE-RQ");
        byte[] huge = request("A", "B", 0);
        huge[2] = 0x7f;
        assertThatThrownBy(() -> AssociationRequest.read(new ByteArrayInputStream(huge)))
                .hasMessageContaining("bytes");
        assertThatThrownBy(() -> AssociationRequest.read(new ByteArrayInputStream(new byte[3])))
                .isInstanceOf(IOException.class);
    }

    @Test
    void rejectionPduCarriesResultSourceAndReason() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        AssociationRequest.reject(out, AssociationRequest.Rejection.CALLING_AE_NOT_RECOGNIZED);
        assertThat(out.toByteArray()).containsExactly(0x03, 0, 0, 0, 0, 4, 0, 1, 1, 3);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = new byte[a.length + b.length];
        System.arraycopy(a, 0, c, 0, a.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
