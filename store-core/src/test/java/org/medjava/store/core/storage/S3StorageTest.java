package org.medjava.store.core.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.medjava.store.testkit.peers.S3ProxyServer;
import software.amazon.awssdk.core.sync.RequestBody;

/** {@link S3Storage} against a real S3Proxy process, held to the {@link ObjectStorageContract}. */
class S3StorageTest extends ObjectStorageContract {

    /** Small parts, so that the contract's large object goes in several. */
    static final long PART_SIZE = S3Settings.MIN_PART_SIZE;
    static final String PREFIX = "medjava/images";

    @TempDir
    static Path serverDir;
    static S3ProxyServer server;
    static final AtomicInteger buckets = new AtomicInteger();

    String bucket;

    @BeforeAll
    static void startServer() throws IOException {
        server = S3ProxyServer.start(serverDir);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected ObjectStorage newStorage(Path tempDir) throws IOException {
        bucket = "contract-" + buckets.incrementAndGet();
        server.createBucket(bucket);
        return S3Storage.open(S3ProxySettings.of(server, bucket, PREFIX).withMultipart(PART_SIZE, PART_SIZE),
                tempDir.resolve("staging"));
    }

    @Test
    void localCopyIsATemporaryFileRemovedOnClose() throws IOException {
        put("x.dcm", bytes("x"));
        Path path;
        try (LocalCopy copy = storage.localCopy("x.dcm")) {
            path = copy.path();
            assertThat(path).startsWith(tempDir.resolve("staging")).isRegularFile();
        }
        assertThat(path).doesNotExist();
    }

    @Test
    void objectsLieUnderThePrefixWithTheirEtagInUserMetadata() throws IOException {
        StorageEntry e = put("a/b.dcm", bytes("b"));
        var head = server.client().headObject(b -> b.bucket(bucket).key(PREFIX + "/a/b.dcm"));
        assertThat("\"" + head.metadata().get(S3Storage.META_ETAG) + "\"").isEqualTo(e.etag());
        assertThat(head.metadata()).containsKey(S3Storage.META_MODIFIED);
    }

    @Test
    void objectsOutsideThePrefixAreNotSeen() throws IOException {
        server.client().putObject(b -> b.bucket(bucket).key("elsewhere/x.dcm"), RequestBody.fromString("x"));
        server.client().putObject(b -> b.bucket(bucket).key("medjava/imagesX/y.dcm"), RequestBody.fromString("y"));
        put("inside.dcm", bytes("i"));
        assertThat(storage.list("")).extracting(StorageEntry::key).containsExactly("inside.dcm");
        List<StorageEntry> all = new ArrayList<>();
        storage.walk("", all::add);
        assertThat(all).extracting(StorageEntry::key).containsExactly("inside.dcm");
    }

    @Test
    void objectsWrittenByOthersHaveS3sEtag() throws IOException {
        server.client().putObject(b -> b.bucket(bucket).key(PREFIX + "/foreign.dcm"), RequestBody.fromString("f"));
        StorageEntry e = storage.stat("foreign.dcm").orElseThrow();
        assertThat(e.etag()).startsWith("\"").endsWith("\"");
        assertThat(e.size()).isEqualTo(1);
    }

    @Test
    void aWholeReadIsOneGetObjectWithTheEntryFromItsAnswer() throws IOException {
        StorageEntry written = put("one/request.dcm", bytes("one request"));
        List<String> requests = new CopyOnWriteArrayList<>();
        ((S3Storage) storage).onRequest(requests::add);
        try (ObjectRead r = storage.read("one/request.dcm").orElseThrow()) {
            assertThat(r.entry()).isEqualTo(written);
            assertThat(r.body().readAllBytes()).isEqualTo(bytes("one request"));
        }
        assertThat(requests).containsExactly("GetObject");
        requests.clear();
        assertThat(storage.read("one/missing.dcm")).isEmpty();
        assertThat(requests).containsExactly("GetObject");
    }

    @Test
    void describeNamesBucketPrefixAndEndpoint() {
        assertThat(storage.describe()).isEqualTo("s3://" + bucket + "/" + PREFIX + " at " + server.endpoint());
    }

    @Test
    void checkAvailablePasses() throws IOException {
        storage.checkAvailable();
        assertThat(Files.isDirectory(tempDir.resolve("staging"))).isTrue();
    }
}
