package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.SharedStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * The front's h2c upgrade (front.FrontServer): the upgraded request (stream 1) is answered only once the client's
 * connection preface has come, that is once the client reads the connection as HTTP/2. Answered at once, its
 * answer followed the 101 in the same segments, and the JDK's HttpClient lost what of it came in the same socket
 * read as the 101 beyond its first 16 KiB buffer: about one upgraded GET of a 39 KB file in 30 to 100 got its
 * headers and never its body.
 */
@ExtendWith(SharedStore.class)
class FrontH2cUpgradeIT {

    private static final String PATH = "/images/it/front-h2c/ct.dcm";
    /** More than 16 KiB, the JDK client's read buffer, and less than HTTP/2's initial 64 KiB window. */
    private static final byte[] DICOM = FrontIT.DICOM;
    private static final int FRAME_HEADERS = 1;
    private static final int FRAME_DATA = 0;
    private static final int END_STREAM = 1;

    @Test
    void theUpgradedRequestIsAnsweredAfterTheClientsPreface() throws Exception {
        stored();
        try (Socket socket = new Socket("127.0.0.1", SharedStore.store().port())) {
            OutputStream out = socket.getOutputStream();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            out.write(("GET " + PATH + " HTTP/1.1\r\nHost: 127.0.0.1:" + SharedStore.store().port()
                    + "\r\nAuthorization: " + PayaraStore.admin() + "\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                    + "Upgrade: h2c\r\nHTTP2-Settings: AAQBAAAA\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            assertThat(head(in)).startsWith("HTTP/1.1 101 ");

            // before the preface: the server's own SETTINGS (its preface), nothing of stream 1
            socket.setSoTimeout(500);
            List<int[]> early = new ArrayList<>();
            try {
                for (int[] frame; (frame = frame(in)) != null; ) {
                    early.add(frame);
                }
            } catch (SocketTimeoutException quiet) {
                // nothing more comes until the client's preface
            }
            assertThat(early).as("frames (length, type, flags, stream) before the client's preface")
                    .allSatisfy(frame -> assertThat(frame[3]).isZero());

            out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.write(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0}); // an empty SETTINGS frame
            out.flush();
            socket.setSoTimeout(10_000);
            boolean headers = false;
            long body = 0;
            for (int[] frame; (frame = frame(in)) != null; ) {
                if (frame[3] == 1 && frame[1] == FRAME_HEADERS) {
                    headers = true;
                } else if (frame[3] == 1 && frame[1] == FRAME_DATA) {
                    body += frame[0];
                    if ((frame[2] & END_STREAM) != 0) {
                        break;
                    }
                }
            }
            assertThat(headers).isTrue();
            assertThat(body).isEqualTo(DICOM.length);
        }
    }

    @Test
    void twoHundredNewJdkClientsEachUpgradeAndGetTheWholeAnswer() throws Exception {
        stored();
        ExecutorService executor = Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < 200; i++) {
                // a new client, so a new connection: its first GET asks for the upgrade
                HttpClient client = HttpClient.newBuilder().executor(executor)
                        .connectTimeout(Duration.ofSeconds(5)).build();
                HttpRequest request = HttpRequest.newBuilder(SharedStore.store().uri(PATH))
                        .header("Authorization", PayaraStore.admin()).build();
                HttpResponse<byte[]> response;
                try {
                    // bounded here: the request's own timeout stops counting once the headers are in
                    response = client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
                            .get(10, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    fail("upgraded GET " + (i + 1) + " of 200 got no whole answer in 10 s");
                    return;
                }
                assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.body()).isEqualTo(DICOM);
            }
        } finally {
            executor.shutdownNow();
        }
    }

    private static void stored() throws Exception {
        StoreClient admin = StoreClient.admin(SharedStore.store());
        assertThat(admin.put(PATH, DICOM).statusCode()).isIn(201, 204);
        assertThat(admin.get(PATH).body()).isEqualTo(DICOM); // the password checked once
    }

    /** An HTTP/1.1 answer's status line and headers. */
    private static String head(DataInputStream in) throws Exception {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            head.write(in.readUnsignedByte());
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    /** The next HTTP/2 frame, its payload skipped: length, type, flags, stream; null at the end. */
    private static int[] frame(DataInputStream in) throws Exception {
        int first = in.read();
        if (first < 0) {
            return null;
        }
        int length = first << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
        int type = in.readUnsignedByte();
        int flags = in.readUnsignedByte();
        int stream = in.readInt() & 0x7fffffff;
        in.readFully(new byte[length]);
        return new int[] {length, type, flags, stream};
    }
}
