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

    // ------------------------------------------------------------------ derive-series jobs

    /** Uploads a grey series of {@code count} synthetic CT images of {@code size}² under {@code dir}/. */
    private static void uploadSeries(String dir, String uidRoot, int size, int count) throws IOException {
        for (int n = 1; n <= count; n++) {
            admin.put(dir + "/" + n + ".dcm", org.medjava.viewer.image.SyntheticDicom.seriesCt(size, uidRoot, n),
                    "application/dicom", new StoreClient.Precondition.None(), Progress.NONE);
        }
    }

    /** Polls every 100 ms until the job has ended or {@code until} holds. */
    private static Job await(String id, java.util.function.Predicate<Job> until) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(100);
        Job j = admin.job(id);
        while (!j.finished() && !until.test(j) && System.nanoTime() < end) {
            Thread.sleep(100);
            j = admin.job(id);
        }
        return j;
    }

    private static org.medjava.viewer.model.FilterStep storedStep(String id, String params) {
        return new org.medjava.viewer.model.FilterStep(id, params, null, org.medjava.filter.Implementation.PARALLEL,
                null, true);
    }

    @Test
    void aSeriesIsDerivedOnTheStoreAndItsFirstImageOpens() throws Exception {
        String series = "1.2.826.0.1.3680043.9.7411";
        uploadSeries("client-it/series-done", series, 64, 2);
        var chain = org.medjava.viewer.model.FilterChain.EMPTY.then(storedStep("blur", "n=3"))
                .then(storedStep("sharpen", "p=50"));
        Map<String, String> params = org.medjava.viewer.model.SeriesJob.params(series + ".2", chain,
                new org.medjava.codec.dicom.Window(40, 400));

        Job submitted = admin.submitJob(org.medjava.viewer.model.SeriesJob.KIND, params);
        assertThat(submitted.id()).isNotBlank();
        assertThat(submitted.state()).isIn("QUEUED", "RUNNING", "DONE");
        Job done = await(submitted.id(), j -> false);

        assertThat(done.state()).as(done.toString()).isEqualTo("DONE");
        assertThat(done.done()).isEqualTo(2);
        assertThat(done.total()).isEqualTo(2);
        Job.DerivedSeries result = done.derivedSeries();
        assertThat(result.derived()).isEqualTo(2);
        assertThat(result.studyInstanceUid()).isEqualTo(series + ".1");
        assertThat(result.seriesInstanceUid()).isNotBlank().isNotEqualTo(series + ".2");
        assertThat(result.first()).startsWith(result.directory()).endsWith(".dcm");
        assertThat(admin.instances(result.seriesInstanceUid())).hasSize(2);
        Download first = admin.download(result.first(), Progress.NONE);
        var image = org.medjava.viewer.image.OpenedImage.decode(new org.medjava.viewer.image.ImageOrigin.StoreFile(
                store.url(), result.first(), first.etag()), first.bytes());
        assertThat(image.isGreyDicom()).as("grey stays grey").isTrue();
        assertThat(org.medjava.codec.dicom.DicomElements.value(image.dicom(), "SeriesInstanceUID"))
                .isEqualTo(result.seriesInstanceUid());
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aQueuedSeriesJobIsCancelledAtOnceARunningOneAtItsNextImage() throws Exception {
        String series = "1.2.826.0.1.3680043.9.7412";
        uploadSeries("client-it/series-cancel", series, 128, 2);
        // slow chains (oil paint's 16-bit histograms, the straightforward kernels) keep both of the store's workers
        // busy, so the third job waits in the queue
        Map<String, String> slow = Map.of("SeriesInstanceUID", series + ".2", "filter", "oil-paint:n=11", "impl",
                "straightforward");
        Job first = admin.submitJob("derive-series", slow);
        Job second = admin.submitJob("derive-series", Map.of("SeriesInstanceUID", series + ".2", "filter",
                "oil-paint:n=9", "impl", "straightforward"));
        Job third = admin.submitJob("derive-series", Map.of("SeriesInstanceUID", series + ".2", "filter", "blur"));

        Job queued = admin.cancelJob(third.id());
        assertThat(queued.state()).as("queued: cancelled at once").isEqualTo("CANCELLED");
        // the second has done its part (the third waited); cancelled now, during its first image: later, it could
        // have finished both of its small images before the request came (DONE, once in CI)
        admin.cancelJob(second.id());

        Job running = await(first.id(), j -> j.done() >= 1);
        assertThat(running.state()).as(running.toString()).isEqualTo("RUNNING");
        Job asked = admin.cancelJob(first.id());
        assertThat(asked.cancelRequested()).isTrue();

        Job cancelled = await(first.id(), j -> false);
        assertThat(cancelled.state()).as(cancelled.toString()).isEqualTo("CANCELLED");
        assertThat(cancelled.result()).matches("cancelled after \\d of 2; the \\d derived instances written were"
                + " removed");
        assertThat(await(second.id(), j -> false).state()).isEqualTo("CANCELLED");
        assertThat(status(() -> admin.cancelJob(first.id()))).as("ended: nothing to cancel").isEqualTo(409);
        assertThat(admin.series(series + ".1")).as("no derived series left").hasSize(1);
    }

    @Test
    void aSeriesJobTheStoreCannotRunIsRefusedWithItsReason() throws Exception {
        String series = "1.2.826.0.1.3680043.9.7413";
        uploadSeries("client-it/series-refused", series, 32, 2);
        StoreException badChain = (StoreException) org.assertj.core.api.Assertions.catchThrowable(() ->
                admin.submitJob("derive-series", Map.of("SeriesInstanceUID", series + ".2", "filter", "blur:n=4")));
        assertThat(badChain.status()).isEqualTo(400);
        assertThat(badChain.serverMessage()).isNotBlank();
        assertThat(badChain.getMessage()).contains("400").contains(badChain.serverMessage());
        assertThat(status(() -> admin.submitJob("derive-series", Map.of("SeriesInstanceUID", "1.2.3.4.404",
                "filter", "blur")))).isEqualTo(404);
        assertThat(status(() -> admin.job("no-such-job"))).isEqualTo(404);
    }
}
