package org.medjava.store.core.ingest;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.storage.ObjectStorage;
import org.medjava.store.core.storage.S3ProxySettings;
import org.medjava.store.core.storage.S3Storage;
import org.medjava.store.testkit.peers.S3ProxyServer;

/** {@link CrashRecoveryTest} with the objects in S3 (S3Proxy): the journal and its reconciliation do not care. */
class CrashRecoveryOnS3Test extends CrashRecoveryTest {

    @TempDir
    static Path serverDir;
    static S3ProxyServer server;
    static final AtomicInteger BUCKETS = new AtomicInteger();

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
    ObjectStorage openStorage(Path dir) throws IOException {
        String bucket = "crash-" + BUCKETS.incrementAndGet();
        server.createBucket(bucket);
        return S3Storage.open(S3ProxySettings.of(server, bucket, "store"), dir.resolve("staging"));
    }
}
