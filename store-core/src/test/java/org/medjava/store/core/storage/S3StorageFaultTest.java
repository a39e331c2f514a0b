package org.medjava.store.core.storage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import org.medjava.store.testkit.Ports;
import org.medjava.store.testkit.peers.S3ProxyServer;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

/** {@link S3Storage} when S3Proxy dies, refuses us, or is not there. Each test runs its own server process. */
@Timeout(120)
class S3StorageFaultTest {

    static final String BUCKET = "faults";
    static final String PREFIX = "store";

    @TempDir
    Path tempDir;
    S3ProxyServer server;
    S3Storage storage;

    @BeforeEach
    void start() throws IOException {
        server = S3ProxyServer.start(tempDir.resolve("server"));
        server.createBucket(BUCKET);
    }

    @AfterEach
    void stop() {
        if (storage != null) {
            storage.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private S3Storage openStorage() throws IOException {
        storage = S3Storage.open(S3ProxySettings.of(server, BUCKET, PREFIX).withMultipart(5L << 20, 5L << 20),
                tempDir.resolve("staging"));
        return storage;
    }

    private StorageEntry put(String key, String text) throws IOException {
        Path staging = storage.newStagingFile("body");
        Files.writeString(staging, text, UTF_8);
        return storage.install(key, storage.stage(staging), e -> { });
    }

    @Test
    void serverKilledDuringAMultipartUploadLeavesThePreviousVersion() throws IOException {
        openStorage();
        StorageEntry previous = put("series/big.dcm", "previous version");

        Path staging = storage.newStagingFile("big");
        try (OutputStream out = Files.newOutputStream(staging)) {
            ObjectStorageContract.writePattern(out, 64L << 20);
        }
        // Deterministic: the server dies right after the first part has been accepted.
        AtomicInteger partsUploaded = new AtomicInteger();
        storage.onPartUploaded(n -> {
            partsUploaded.set(n);
            if (n == 1) {
                server.kill();
            }
        });
        List<StorageEntry> visible = new ArrayList<>();
        StagedBody body = storage.stage(staging);
        assertThatThrownBy(() -> storage.install("series/big.dcm", body, visible::add))
                .isInstanceOf(StorageUnavailableException.class)
                .hasMessageStartingWith("object storage at " + server.endpoint() + " unreachable")
                .hasMessageContaining("series/big.dcm");
        assertThat(partsUploaded).hasValue(1);
        assertThat(visible).as("onVisible never ran").isEmpty();
        assertThat(staging).doesNotExist();

        server.restart();
        awaitBack();
        storage.onPartUploaded(n -> { });
        StorageEntry now = storage.stat("series/big.dcm").orElseThrow();
        assertThat(now.etag()).isEqualTo(previous.etag());
        assertThat(now.size()).isEqualTo(previous.size());
        try (InputStream in = storage.open("series/big.dcm", 0, now.size())) {
            assertThat(new String(in.readAllBytes(), UTF_8)).isEqualTo("previous version");
        }
        List<StorageEntry> all = new ArrayList<>();
        storage.walk("", all::add);
        assertThat(all).extracting(StorageEntry::key).containsExactly("series/big.dcm");

        // The abort could not reach the dead server: the upload is left over until the start-up sweep.
        assertThat(pendingUploads()).extracting(MultipartUpload::key).containsExactly(PREFIX + "/series/big.dcm");
        assertThat(storage.abortStaleUploads(Duration.ofDays(1))).isZero();
        assertThat(storage.abortStaleUploads(Duration.ZERO)).isEqualTo(1);
        assertThat(pendingUploads()).isEmpty();
    }

    @Test
    void aFailedMultipartUploadIsAbortedWhenTheServerIsStillThere() throws IOException {
        openStorage();
        Path staging = storage.newStagingFile("big");
        try (OutputStream out = Files.newOutputStream(staging)) {
            ObjectStorageContract.writePattern(out, 12L << 20);
        }
        storage.onPartUploaded(n -> {
            throw new IllegalStateException("failure injected after part " + n);
        });
        StagedBody body = storage.stage(staging);
        assertThatThrownBy(() -> storage.install("x.dcm", body, e -> { }))
                .hasMessageContaining("failure injected");
        assertThat(pendingUploads()).isEmpty();
        assertThat(storage.stat("x.dcm")).isEmpty();
        assertThat(staging).doesNotExist();
    }

    @Test
    void serverKilledWhileAnObjectIsReadFailsTheRead() throws IOException {
        openStorage();
        long size = 32L << 20; // more than loopback socket buffers hold
        Path staging = storage.newStagingFile("big");
        try (OutputStream out = Files.newOutputStream(staging)) {
            ObjectStorageContract.writePattern(out, size);
        }
        storage.install("big.bin", storage.stage(staging), e -> { });
        try (InputStream in = storage.open("big.bin", 0, size)) {
            assertThat(in.readNBytes(64 * 1024)).hasSize(64 * 1024);
            server.kill();
            assertThatThrownBy(() -> in.transferTo(OutputStream.nullOutputStream()))
                    .isInstanceOf(StorageUnavailableException.class)
                    .hasMessageStartingWith("object storage at " + server.endpoint() + " unreachable")
                    .hasMessageContaining("big.bin");
        }
    }

    @Test
    void wrongSecretKeyIsRefusedAtStart() {
        S3Settings s = S3ProxySettings.of(server, BUCKET, PREFIX);
        S3Settings wrong = new S3Settings(s.endpoint(), s.region(), s.bucket(), s.prefix(), s.accessKey(),
                "not-the-secret");
        assertThatThrownBy(() -> S3Storage.open(wrong, tempDir.resolve("staging")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("refused the credentials")
                .hasMessageContaining(S3Settings.ACCESS_KEY)
                .hasMessageContaining(S3Settings.SECRET_KEY)
                .hasMessageNotContaining("not-the-secret");
    }

    @Test
    void missingBucketIsRefusedAtStart() {
        assertThatThrownBy(() -> S3Storage.open(S3ProxySettings.of(server, "no-such-bucket", PREFIX),
                tempDir.resolve("staging")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(S3Settings.BUCKET + "=no-such-bucket");
    }

    @Test
    void endpointNotListeningIsRefusedAtStart() throws IOException {
        S3Settings s = S3ProxySettings.of(server, BUCKET, PREFIX);
        String nobody = "http://127.0.0.1:" + Ports.free();
        S3Settings nowhere = new S3Settings(java.net.URI.create(nobody), null, s.bucket(), s.prefix(),
                s.accessKey(), s.secretKey());
        assertThatThrownBy(() -> S3Storage.open(nowhere, tempDir.resolve("staging")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(S3Settings.ENDPOINT + "=" + nobody)
                .hasMessageContaining("unreachable");
    }

    @Test
    void serverDownMakesEveryOperationUnavailable() throws IOException {
        openStorage();
        put("a/b.dcm", "b");
        server.stop();
        String expected = "object storage at " + server.endpoint() + " unreachable";

        long t0 = System.nanoTime();
        assertThatThrownBy(() -> storage.stat("a/b.dcm"))
                .isInstanceOf(StorageUnavailableException.class).hasMessageStartingWith(expected);
        long first = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        t0 = System.nanoTime();
        assertThatThrownBy(() -> storage.open("a/b.dcm", 0, 1))
                .isInstanceOf(StorageUnavailableException.class).hasMessageStartingWith(expected);
        assertThatThrownBy(() -> storage.open("a/b.dcm", 0, 0))
                .isInstanceOf(StorageUnavailableException.class).hasMessageStartingWith(expected);
        assertThatThrownBy(() -> storage.list("a"))
                .isInstanceOf(StorageUnavailableException.class).hasMessageStartingWith(expected);
        assertThatThrownBy(() -> storage.walk("", e -> { }))
                .isInstanceOf(StorageUnavailableException.class).hasMessageStartingWith(expected);
        assertThatThrownBy(() -> storage.delete("a/b.dcm"))
                .isInstanceOf(StorageUnavailableException.class).hasMessageStartingWith(expected);
        assertThatThrownBy(() -> storage.localCopy("a/b.dcm"))
                .isInstanceOf(StorageUnavailableException.class).hasMessageStartingWith(expected);
        assertThatThrownBy(() -> storage.checkAvailable())
                .isInstanceOf(StorageUnavailableException.class).hasMessageStartingWith(expected);
        Path staging = storage.newStagingFile("body");
        Files.writeString(staging, "new", UTF_8);
        StagedBody body = storage.stage(staging);
        assertThatThrownBy(() -> storage.install("a/c.dcm", body, e -> { }))
                .isInstanceOf(StorageUnavailableException.class).hasMessageStartingWith(expected);
        long rest = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        System.out.printf("S3StorageFaultTest: server down: first operation refused after %d ms, the next nine in %d"
                + " ms%n", first, rest);
        assertThat(first).as("the first is refused within a second").isLessThan(1_000);
        assertThat(rest).as("the others at once, not each through the client's retries").isLessThan(500);
        assertThat(staging).doesNotExist();
        try (var files = Files.list(tempDir.resolve("staging"))) {
            assertThat(files).as("no local copies left behind").isEmpty();
        }

        server.restart();
        awaitBack();
        storage.checkAvailable();
        assertThat(storage.stat("a/b.dcm")).isPresent();
        assertThat(storage.stat("a/c.dcm")).isEmpty();
    }

    /** The storage finds the server back by itself (its probe, every half second). */
    private void awaitBack() throws IOException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                storage.checkAvailable();
                return;
            } catch (StorageUnavailableException e) {
                if (System.nanoTime() > end) {
                    throw e;
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private List<MultipartUpload> pendingUploads() {
        return server.client().listMultipartUploads(b -> b.bucket(BUCKET)).uploads();
    }
}
