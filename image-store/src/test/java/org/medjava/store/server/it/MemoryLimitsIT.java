package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.medjava.store.core.testsupport.GeneratedDicom;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * Memory and size limits on a real store (docs/operations/limits-and-guarantees.md, "Memory and size limits"): a small
 * PNG declaring a huge image is 413 with the numbers; renders beyond the decode budget are 503 with Retry-After; a
 * filter chain over the cap is 400; a third concurrent large upload is 503 with Retry-After; two concurrent uploads of
 * 1 GiB DICOM objects (encapsulated PDFs, which the store keeps and never renders) keep the store's peak resident
 * memory (VmHWM) within its heap limit plus a stated margin; and a 1 GiB multi-frame image, which no rendering could
 * ever decode within the budget, is 413 from its header, before its body is received.
 */
@Timeout(300)
class MemoryLimitsIT {

    private static final long MIB = 1 << 20;
    private static final String HEAP = "4g";
    private static final long HEAP_BYTES = 4L << 30;
    /** Beyond the heap: metaspace, code cache, thread stacks, Payara's own native memory, small direct buffers. */
    private static final long NATIVE_MARGIN = 1536 * MIB;
    /** 2047 frames of 512 x 512 x 16 bits and the header: just under the default upload limit of 1 GiB. */
    private static final int FRAMES = 2047;
    /** An encapsulated document of about as much, with its header still under the limit. */
    private static final long DOCUMENT_BYTES = FRAMES * GeneratedDicom.FRAME_BYTES;

    private static PayaraStore store;
    private static StoreClient admin;

    @BeforeAll
    @Timeout(300)
    static void start() throws Exception {
        Path data = Files.createTempDirectory(Path.of(System.getProperty("store.war")).getParent(), "it-data-memory-");
        store = PayaraStore.named("memory").dataDir(data).heap(HEAP)
                .property("medjava.memory.decode-budget-bytes", Long.toString(160 * MIB))
                .property("medjava.upload.max-bytes", Long.toString(1L << 30))
                .property("medjava.memory.decode-wait-millis", "0")
                .property("medjava.seed.plugins", System.getProperty("store.plugins"))
                .start();
        admin = StoreClient.admin(store);
    }

    @AfterAll
    static void stop() throws Exception {
        if (store != null) {
            store.close();
        }
    }

    @Test
    void aSmallPngDeclaringAHugeImageIs413WithTheNumbers() throws Exception {
        byte[] png = pngDeclaring(268_000_000, 1);
        HttpResponse<String> r = admin.sendText(admin.request("/images/it/memory/wide.png")
                .header("Content-Type", "image/png").PUT(HttpRequest.BodyPublishers.ofByteArray(png)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(413);
        assertThat(r.body()).contains("268000000x1").contains("decode budget of 160 MiB")
                .contains("medjava.memory.decode-budget-bytes");
        assertThat(admin.get("/images/it/memory/wide.png").statusCode()).isEqualTo(404);
    }

    @Test
    void aChainLongerThanTheCapIs400NamingTheLimit() throws Exception {
        assertThat(admin.put("/images/it/memory/small.png", GeneratedPng.bytes(40, 30, 1)).statusCode())
                .isEqualTo(201);
        String chain = String.join("%7C", java.util.Collections.nCopies(17, "blur"));
        HttpResponse<String> r = admin.getJson("/images/it/memory/small.png?render=png&filter=" + chain);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(r.body()).contains("17 steps").contains("at most 16").contains("medjava.filters.max-chain");
    }

    @Test
    void rendersBeyondTheDecodeBudgetAre503WithRetryAfter() throws Exception {
        // 4000 x 4000 grey: about 61 MiB to decode, so two renders fit in the 160 MiB budget and a third does not
        assertThat(admin.put("/images/it/memory/large.png", GeneratedPng.bytes(4000, 4000, 2)).statusCode())
                .isEqualTo(201);
        List<CompletableFuture<HttpResponse<String>>> renders = new ArrayList<>();
        java.util.concurrent.ExecutorService clients = java.util.concurrent.Executors.newFixedThreadPool(6);
        for (int i = 0; i < 6; i++) {
            renders.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return admin.sendText(admin.request("/images/it/memory/large.png?render=png")
                            .timeout(java.time.Duration.ofSeconds(120)));
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, clients)); // a thread each, so the six overlap (the common pool has one thread on two cores)
        }
        clients.shutdown();
        List<Integer> statuses = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> f : renders) {
            HttpResponse<String> r = f.get(150, TimeUnit.SECONDS);
            statuses.add(r.statusCode());
            if (r.statusCode() == 503) {
                assertThat(r.headers().firstValue("Retry-After")).isPresent();
                assertThat(r.body()).contains("decode budget");
            }
        }
        System.out.println("MemoryLimitsIT: six concurrent renders answered " + statuses);
        assertThat(statuses).contains(200, 503).containsOnly(200, 503);
    }

    @Test
    @Timeout(240)
    void twoConcurrentOneGibUploadsStayWithinTheHeapAndAThirdIs503() throws Exception {
        // each object has its own UIDs, whose length varies: every Content-Length is taken from the body it announces.
        // Objects the store keeps (a multi-frame image of this size could never be rendered and is refused at once)
        GeneratedDicom bodyA = GeneratedDicom.pdf(DOCUMENT_BYTES);
        GeneratedDicom bodyB = GeneratedDicom.pdf(DOCUMENT_BYTES);
        long size = bodyA.size();
        long before = peakRss();
        try (RawPut first = RawPut.begin(store, "/images/it/memory/a.dcm", bodyA.size()).notRefusedAtOnce();
             RawPut second = RawPut.begin(store, "/images/it/memory/b.dcm", bodyB.size()).notRefusedAtOnce()) {
            // both take their large-upload slot once their request reaches the resource; a third is then refused
            String third = thirdLargeUploadAnswer(size);
            assertThat(third).startsWith("HTTP/1.1 503").containsIgnoringCase("Retry-After:")
                    .contains("large uploads");
            // a thread each: the common pool has one thread on two cores, and a body left waiting while the other is
            // sent would time out on the server's side
            java.util.concurrent.ExecutorService senders = java.util.concurrent.Executors.newFixedThreadPool(2);
            try {
                CompletableFuture<String> a = CompletableFuture.supplyAsync(
                        () -> first.finish(bodyA), senders);
                CompletableFuture<String> b = CompletableFuture.supplyAsync(
                        () -> second.finish(bodyB), senders);
                assertThat(a.get(200, TimeUnit.SECONDS)).startsWith("HTTP/1.1 201");
                assertThat(b.get(200, TimeUnit.SECONDS)).startsWith("HTTP/1.1 201");
            } finally {
                senders.shutdownNow();
            }
        }
        long peak = peakRss();
        System.out.printf("MemoryLimitsIT: two concurrent PUTs of %d bytes: peak RSS (VmHWM) %d MiB (before: %d MiB),"
                + " heap limit %s, allowed %d MiB%n", size, peak / MIB, before / MIB, HEAP,
                (HEAP_BYTES + NATIVE_MARGIN) / MIB);
        assertThat(peak).isLessThanOrEqualTo(HEAP_BYTES + NATIVE_MARGIN);
        assertThat(admin.delete("/images/it/memory/a.dcm").statusCode()).isEqualTo(204);
        assertThat(admin.delete("/images/it/memory/b.dcm").statusCode()).isEqualTo(204);
    }

    /**
     * A 1 GiB native multi-frame image is refused from its header, with the reason, while its body is still being
     * sent (issue 40, item 4): not stored and then refused by every rendering.
     */
    @Test
    @Timeout(240)
    void aOneGibMultiFrameImageIs413BeforeItsBodyIsReceived() throws Exception {
        GeneratedDicom image = new GeneratedDicom(FRAMES);
        try (RawPut put = RawPut.begin(store, "/images/it/memory/frames.dcm", image.size()).notRefusedAtOnce()) {
            java.util.concurrent.atomic.AtomicLong sent = new java.util.concurrent.atomic.AtomicLong();
            Thread sender = new Thread(() -> put.send(image, sent), "frames-sender");
            sender.start(); // the whole body, until the store closes the connection (then a broken pipe: ignored)
            String answer = put.answerWithin(120_000);
            long sentWhenAnswered = sent.get();
            put.close();
            sender.join(60_000);
            assertThat(answer).as("no answer while the body was sent").isNotNull();
            assertThat(answer).startsWith("HTTP/1.1 413").contains("2047 frames", "decode budget of 160 MiB",
                    "could never be rendered");
            assertThat(sentWhenAnswered).as("bytes sent of " + image.size() + " when answered")
                    .isLessThan(image.size());
        }
        assertThat(admin.get("/images/it/memory/frames.dcm").statusCode()).isEqualTo(404);
    }

    /** Sends a third large PUT's headers until the store answers (503), or gives up after 20 s. */
    private static String thirdLargeUploadAnswer(long size) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            try (RawPut third = RawPut.begin(store, "/images/it/memory/c.dcm", size)) {
                String answer = third.answerWithin(2000);
                if (answer != null && answer.contains("large uploads")) {
                    return answer;
                }
            } // no answer: it got a slot before the others did (closing the connection gives it back), or it was
              // refused for another reason (too many password checks at once): try again
            Thread.sleep(300);
        }
        throw new AssertionError("no 503 for a third large upload within 20 s");
    }

    /** VmHWM of the store's JVM, in bytes. */
    private static long peakRss() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + store.process().pid() + "/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IllegalStateException("no VmHWM for the store's process");
    }

    /** A PNG signature and header declaring {@code width x height} grey pixels, one IDAT of nothing, IEND. */
    private static byte[] pngDeclaring(int width, int height) {
        byte[] whole = GeneratedPng.bytes(1, 1, 1);
        byte[] png = whole.clone();
        java.nio.ByteBuffer.wrap(png, 16, 8).putInt(width).putInt(height);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(png, 12, 17);
        java.nio.ByteBuffer.wrap(png, 29, 4).putInt((int) crc.getValue());
        return png;
    }

    /** A PUT over a plain socket: headers first, the body later, the answer read by hand. */
    private static final class RawPut implements AutoCloseable {
        private final Socket socket;

        private RawPut(Socket socket) {
            this.socket = socket;
        }

        static RawPut begin(PayaraStore store, String path, long length) throws IOException {
            Socket socket = new Socket("127.0.0.1", store.port());
            String head = "PUT " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + store.port() + "\r\nAuthorization: "
                    + PayaraStore.admin() + "\r\nContent-Type: application/dicom\r\nContent-Length: " + length
                    + "\r\nConnection: close\r\n\r\n";
            socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return new RawPut(socket);
        }

        /** This upload, after checking that the store did not refuse it on its headers alone. */
        RawPut notRefusedAtOnce() throws IOException {
            String early = answerWithin(500);
            if (early != null) {
                throw new AssertionError("the store refused an upload before its body: " + early);
            }
            return this;
        }

        /** The status line and headers if the store answers within {@code millis} without the body, else null. */
        String answerWithin(int millis) throws IOException {
            socket.setSoTimeout(millis);
            try {
                return readAnswer();
            } catch (SocketTimeoutException e) {
                return null;
            }
        }

        /**
         * Sends {@code body}, counting the bytes written in {@code sent}, until it ends or the store stops the
         * connection (an early answer): the write failure is then expected, and the answer is read by the caller.
         */
        void send(InputStream body, java.util.concurrent.atomic.AtomicLong sent) {
            try (body) {
                OutputStream out = socket.getOutputStream();
                byte[] buffer = new byte[1 << 16];
                for (int n; (n = body.read(buffer)) > 0; ) {
                    out.write(buffer, 0, n);
                    sent.addAndGet(n);
                }
                out.flush();
            } catch (IOException e) {
                // the store answered and closed the connection (or the test closed it after the answer)
            }
        }

        String finish(InputStream body) {
            try (body) {
                OutputStream out = socket.getOutputStream();
                byte[] buffer = new byte[1 << 16];
                for (int n; (n = body.read(buffer)) > 0; ) {
                    out.write(buffer, 0, n);
                }
                out.flush();
                socket.setSoTimeout(180_000);
                return readAnswer();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        private String readAnswer() throws IOException {
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.ISO_8859_1));
            StringBuilder answer = new StringBuilder();
            int length = -1;
            for (String line; (line = in.readLine()) != null && !line.isEmpty(); ) {
                answer.append(line).append('\n');
                if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                    length = Integer.parseInt(line.substring(line.indexOf(':') + 1).trim());
                }
            }
            char[] body = new char[4096];
            // the whole body when its length is announced (the reason may come in more than one read)
            int n = length >= 0 ? readFully(in, body, Math.min(length, body.length))
                    : in.read(body);
            if (n > 0) {
                answer.append(body, 0, n);
            }
            return answer.toString();
        }

        private static int readFully(java.io.Reader in, char[] into, int length) throws IOException {
            int n = 0;
            for (int r; n < length && (r = in.read(into, n, length - n)) > 0; ) {
                n += r;
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
