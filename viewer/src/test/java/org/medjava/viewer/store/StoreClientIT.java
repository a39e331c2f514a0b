package org.medjava.viewer.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.medjava.viewer.image.Samples;
import org.medjava.viewer.testsupport.LocalStore;

/**
 * The client against the real store: every refusal an upload can meet arrives promptly as its status (the store
 * refuses from the headers, so the client must not keep sending the body), and the index and manifest read back.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StoreClientIT {
    private static LocalStore store;
    private static StoreClient admin;
    private static final byte[] PNG = pngOf("gif/ct-small.gif");

    @BeforeAll
    static void start() throws Exception {
        store = LocalStore.shared();
        admin = client("admin", LocalStore.ADMIN_PASSWORD);
        store.user("reader2", "reader-password-2", "reader");
    }

    private static StoreClient client(String user, String password) {
        return new StoreClient(URI.create(store.url()), new Credentials(user, password.toCharArray()));
    }

    private static byte[] pngOf(String sample) {
        try {
            var out = new java.io.ByteArrayOutputStream();
            org.medjava.codec.ImageCodec.write(org.medjava.codec.ImageCodec.read(Samples.bytes(sample)),
                    org.medjava.codec.ImageFormat.PNG, out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static int status(ThrowingCall call) {
        try {
            call.run();
            return 200;
        } catch (StoreException e) {
            return e.status();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private interface ThrowingCall {
        void run() throws IOException;
    }

    @Test
    void uploadsAndReadsBackWithTheNewEtag() throws IOException {
        String etag = admin.put("client-it/a.png", PNG, "image/png", new StoreClient.Precondition.IfAbsent(),
                Progress.NONE);
        Download d = admin.download("client-it/a.png", Progress.NONE);
        assertThat(d.bytes()).isEqualTo(PNG);
        assertThat(d.etag()).isEqualTo(etag);
        assertThat(admin.etag("client-it/a.png")).isEqualTo(etag);
        assertThat(admin.etag("client-it/none.png")).isNull();
        assertThat(admin.list("client-it/").entries()).extracting(Listing.Entry::name).contains("a.png");
    }

    @Test
    void aStaleEtagIs412AndAnExistingNameWithIfAbsentToo() throws IOException {
        String first = admin.put("client-it/b.png", PNG, "image/png", new StoreClient.Precondition.None(),
                Progress.NONE);
        admin.put("client-it/b.png", PNG, "image/png", new StoreClient.Precondition.IfMatch(first), Progress.NONE);
        assertThat(status(() -> admin.put("client-it/b.png", PNG, "image/png",
                new StoreClient.Precondition.IfMatch(first), Progress.NONE))).isEqualTo(412);
        assertThat(status(() -> admin.put("client-it/b.png", PNG, "image/png",
                new StoreClient.Precondition.IfAbsent(), Progress.NONE))).isEqualTo(412);
    }

    @Test
    void wrongPasswordIs401AndAReaderUploadingIs403() {
        assertThat(status(() -> client("admin", "wrong").list(""))).isEqualTo(401);
        StoreClient reader = client("reader2", "reader-password-2");
        assertThat(status(() -> reader.list(""))).isEqualTo(200);
        assertThat(status(() -> reader.put("client-it/c.png", PNG, "image/png", new StoreClient.Precondition.None(),
                Progress.NONE))).isEqualTo(403);
    }

    @Test
    void aBodyOverTheLimitIs413AndAWrongTypeIs415() {
        byte[] huge = new byte[(64 << 20) + 1]; // the test store's limit is 64 MiB
        System.arraycopy(PNG, 0, huge, 0, PNG.length);
        assertThat(status(() -> admin.put("client-it/huge.png", huge, "image/png",
                new StoreClient.Precondition.None(), Progress.NONE))).isEqualTo(413);
        StoreException wrongType = (StoreException) org.assertj.core.api.Assertions.catchThrowable(() -> admin.put(
                "client-it/d.dcm", PNG, "application/dicom", new StoreClient.Precondition.None(), Progress.NONE));
        assertThat(wrongType.status()).isEqualTo(415);
        assertThat(wrongType.getMessage()).contains("415").contains(wrongType.serverMessage());
    }

    @Test
    void anUnreachableStoreIsStatusZeroWithAnExplanation() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        StoreClient nowhere = new StoreClient(URI.create("http://127.0.0.1:" + port), new Credentials("a",
                new char[0]));
        assertThatThrownBy(() -> nowhere.list("")).isInstanceOf(StoreException.class)
                .hasMessageContaining("not reachable").matches(e -> ((StoreException) e).unreachable());
    }

    @Test
    void theIndexAndTheManifestReadBack() throws IOException {
        var studies = admin.studies(Map.of("ModalitiesInStudy", "CT"));
        assertThat(studies).isNotEmpty();
        var series = admin.series(studies.get(0).studyInstanceUid());
        assertThat(series).isNotEmpty();
        assertThat(admin.instances(series.get(0).seriesInstanceUid())).extracting(IndexRows.Instance::path)
                .allMatch(p -> p.endsWith(".dcm"));
        Manifest manifest = admin.manifest(null);
        assertThat(manifest.plugins()).extracting(Manifest.Plugin::id).contains("blur", "sharpen");
        assertThat(manifest.etag()).isNotBlank();
        assertThat(admin.manifest(manifest.etag())).as("unchanged: 304").isNull();
        byte[] jar = admin.downloadPlugin(manifest.plugins().get(0).download());
        assertThat(org.medjava.viewer.filters.PluginVerifier.sha256(jar)).isEqualTo(manifest.plugins().get(0).sha256());
    }
}
