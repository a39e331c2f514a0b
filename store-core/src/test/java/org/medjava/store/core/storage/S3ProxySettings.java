package org.medjava.store.core.storage;

import org.medjava.store.testkit.peers.S3ProxyServer;

/**
 * The storage's settings for a bucket of the tests' S3Proxy: image-store-testkit's {@link S3ProxyServer} knows
 * nothing of store-core, which takes the test kit, so the settings are made here.
 */
public final class S3ProxySettings {

    private S3ProxySettings() {
    }

    public static S3Settings of(S3ProxyServer server, String bucket, String prefix) {
        return new S3Settings(server.endpoint(), null, bucket, prefix, S3ProxyServer.ACCESS_KEY,
                S3ProxyServer.SECRET_KEY);
    }
}
