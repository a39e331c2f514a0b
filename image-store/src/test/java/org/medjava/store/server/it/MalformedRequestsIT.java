package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.RawHttp;
import org.medjava.store.testkit.store.SharedStore;

/**
 * Requests the servlet container could not decode or would wait on for ever: an address with a malformed percent
 * escape is 400 with its reason for every method (a PUT was 200 with nothing stored), with one access log line and no
 * stack trace in the server log; a client that sends its headers a byte a second is cut off after the header
 * timeout.
 */
@ExtendWith(SharedStore.class)
class MalformedRequestsIT {

    private static final List<String> METHODS = List.of("GET", "HEAD", "PUT", "POST", "DELETE", "PATCH", "OPTIONS");
    private static final List<String> TARGETS = List.of("/images/it/malformed/bad%zz.png", "/images/%u0041",
            "/images/it/malformed/x%", "/images/it/malformed/%4", "/dicomweb/studies/%zz", "/viewer/%zz", "/%zz",
            "/images/it/malformed/%ff.png");

    @Test
    void aMalformedAddressIs400WithItsReasonForEveryMethodAndNothingIsStored() throws Exception {
        PayaraStore store = SharedStore.store();
        Path serverLog = store.dataDir().resolve("logs/medjava.log");
        long logBefore = Files.size(serverLog);
        Path accessLog = store.dataDir().resolve("logs/access.log");
        long linesBefore = refusals(accessLog);
        RawHttp http = RawHttp.to(store);
        for (String method : METHODS) {
            for (String target : TARGETS) {
                for (String authorization : new String[] {"", "Authorization: " + PayaraStore.admin() + "\r\n"}) {
                    byte[] body = method.equals("PUT") || method.equals("POST") ? "GIF89a".getBytes() : null;
                    RawHttp.Response r = http.send(method, target, authorization, body);
                    String what = method + " " + target + (authorization.isEmpty() ? "" : " (admin)");
                    assertThat(r.status()).as(what).isEqualTo(400);
                    if (!method.equals("HEAD")) {
                        assertThat(r.text()).as(what).contains("percent escape", "\"status\":400");
                    }
                    assertThat(r.header("X-Content-Type-Options")).as(what).isEqualTo("nosniff");
                }
            }
        }
        assertThat(store.dataDir().resolve("images/it/malformed")).doesNotExist();
        String log = Files.readString(serverLog).substring((int) logBefore);
        assertThat(log).doesNotContain("URLDecoder", "SEVERE", "Illegal hex");
        int expected = METHODS.size() * TARGETS.size() * 2;
        long lines = 0;
        for (int tries = 0; tries < 100 && lines < expected; tries++) { // the access log is written moments later
            Thread.sleep(50);
            lines = refusals(accessLog) - linesBefore;
        }
        assertThat(lines).as("access log lines of the refusals").isEqualTo(expected);
    }

    /** The access log's 400 lines for the addresses of {@link #TARGETS}. */
    private static long refusals(Path accessLog) throws java.io.IOException {
        if (!Files.exists(accessLog)) {
            return 0;
        }
        return Files.readAllLines(accessLog).stream().filter(l -> l.contains(" 400 ") && TARGETS.stream()
                .anyMatch(t -> l.contains(" " + t + " "))).count();
    }

    @Test
    void headersSentAByteASecondAreCutOffAfterTheHeaderTimeout() throws Exception {
        try (PayaraStore store = PayaraStore.named("slow-headers")
                .property("medjava.http.header-timeout-seconds", "2").start()) {
            byte[] request = ("GET /health/live HTTP/1.1\r\nHost: 127.0.0.1:" + store.port() + "\r\nX-Slow: "
                    + "a".repeat(40) + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
            try (Socket socket = new Socket("127.0.0.1", store.port())) {
                socket.setSoTimeout(60_000);
                OutputStream out = socket.getOutputStream();
                InputStream in = socket.getInputStream();
                int sent = 0;
                boolean cut = false;
                for (; sent < request.length && !cut; sent++) {
                    try {
                        out.write(request[sent]);
                        out.flush();
                    } catch (SocketException e) {
                        cut = true; // the store closed the connection
                        break;
                    }
                    Thread.sleep(500);
                    socket.setSoTimeout(1);
                    try {
                        cut = in.read() == -1;
                    } catch (java.net.SocketTimeoutException e) {
                        // nothing yet: still open
                    } finally {
                        socket.setSoTimeout(60_000);
                    }
                }
                assertThat(cut).as("closed before the trickled request was complete (%d of %d bytes sent)", sent,
                        request.length).isTrue();
                assertThat(sent).isLessThan(request.length);
            }
            // a prompt request on a new connection is answered as always
            assertThat(RawHttp.to(store).send("GET", "/health/live", "", null).status()).isEqualTo(200);
        }
    }

}
