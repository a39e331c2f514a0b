package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.json.Json;
import javax.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.filter.runtime.PluginDirectory;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.SharedStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * Server-side rendering: the store's PNG must equal, pixel for pixel, what the codec and the same plugins give
 * locally; bad requests are 400 with what exists. Derived DICOM: one image ({@code POST /derived}) and a whole series
 * as a job ({@code derive-series}: done, cancelled, refused before it is queued).
 */
@ExtendWith(SharedStore.class)
class RenderIT {

    static StoreClient admin;
    static FilterRegistry local;
    static final Path CT = Samples.dicom("CT_small.dcm");
    static final String DONE_SERIES = "1.2.826.0.1.3680043.9.7301";
    static final String CANCEL_SERIES = "1.2.826.0.1.3680043.9.7302";
    static final String LARGE_SERIES = "1.2.826.0.1.3680043.9.7303";

    @BeforeAll
    static void setUp() throws Exception {
        admin = StoreClient.admin(SharedStore.store());
        assertThat(admin.put("/images/it/render/ct.dcm", Files.readAllBytes(CT)).statusCode()).isIn(201, 204);
        admin.put("/images/it/render/ct.gif", Samples.bytes(Samples.gif("ct-small.gif")));
        admin.put("/images/it/render/jpegls.dcm", Samples.bytes(Samples.dicom("MR_small_jpeg_ls_lossless.dcm")));
        local = new FilterRegistry(Files.createTempDirectory("render-it"));
        SeriesJobs.upload(admin, "it/series/done", DONE_SERIES, 4);
        SeriesJobs.upload(admin, "it/series/cancel", CANCEL_SERIES, SharedStore.MAX_SERIES_INSTANCES);
        SeriesJobs.upload(admin, "it/series/large", LARGE_SERIES, SharedStore.MAX_SERIES_INSTANCES + 1);
        PluginDirectory.loadAll(local, Path.of(System.getProperty("store.plugins")));
    }

    @AfterAll
    static void tearDown() {
        local.close();
    }

    @Test
    void rendersDicomThroughItsOwnWindowOrAGivenOne() throws Exception {
        HttpResponse<byte[]> png = admin.get("/images/it/render/ct.dcm?render=png");
        assertThat(png.statusCode()).isEqualTo(200);
        assertThat(png.headers().firstValue("Content-Type")).hasValue("image/png");
        assertThat(png.headers().firstValue("Server-Timing")).hasValueSatisfying(v -> assertThat(v)
                .matches("decode;dur=[0-9.]+, filter;dur=[0-9.]+, encode;dur=[0-9.]+"));
        assertSame(ImageCodec.read(png.body()), DicomCodec.read(CT).render());

        Raster windowed = ImageCodec.read(admin.get("/images/it/render/ct.dcm?render=png&window=40,400").body());
        assertSame(windowed, DicomCodec.read(CT).render(new Window(40, 400)));
    }

    @Test
    void appliesAFilterChainToARegionExactlyAsThePluginsDoLocally() throws Exception {
        String query = "?render=png&window=40,400&region=10,20,80,60&filter=blur:n=5&filter=sharpen:p=50";
        Raster served = ImageCodec.read(admin.get("/images/it/render/ct.dcm" + query).body());
        // grey DICOM: filters on the stored values first, the window second
        DicomImage ct = DicomCodec.read(CT);
        Region region = Region.parse("10,20,80,60");
        GrayRaster16 stored = local.apply("blur", ct.grayRaster(), region, Map.of("n", "5"), Implementation.OPTIMIZED);
        stored = local.apply("sharpen", stored, region, Map.of("p", "50"), Implementation.OPTIMIZED);
        assertSame(served, ct.withStoredValues(stored).render(new Window(40, 400)));

        Raster gif = ImageCodec.read(admin.get("/images/it/render/ct.gif?render=png&filter=edge-detect").body());
        Raster gifExpected = local.apply("edge-detect", ImageCodec.read(Samples.bytes(Samples.gif("ct-small.gif"))),
                null, Map.of(), Implementation.OPTIMIZED);
        assertSame(gif, gifExpected);
    }

    @Test
    void rendersGifAndJpegAndRevalidatesWithETags() throws Exception {
        HttpResponse<byte[]> gif = admin.get("/images/it/render/ct.dcm?render=gif");
        assertThat(gif.headers().firstValue("Content-Type")).hasValue("image/gif");
        assertThat(new String(gif.body(), 0, 3)).isEqualTo("GIF");
        HttpResponse<byte[]> jpeg = admin.get("/images/it/render/ct.dcm?render=jpeg");
        assertThat(jpeg.headers().firstValue("Content-Type")).hasValue("image/jpeg");
        String etag = jpeg.headers().firstValue("ETag").orElseThrow();
        assertThat(admin.send(admin.request("/images/it/render/ct.dcm?render=jpeg").header("If-None-Match", etag))
                .statusCode()).isEqualTo(304);
    }

    @Test
    void badRenderRequestsSayWhatExists() throws Exception {
        HttpResponse<byte[]> unknown = admin.get("/images/it/render/ct.dcm?render=png&filter=sharpn");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(new String(unknown.body())).contains("sharpn", "available", "sharpen", "blur");

        HttpResponse<byte[]> badParam = admin.get("/images/it/render/ct.dcm?render=png&filter=blur:n=4");
        assertThat(badParam.statusCode()).isEqualTo(400);
        assertThat(new String(badParam.body())).contains("odd");

        assertThat(admin.get("/images/it/render/ct.dcm?render=tiff").statusCode()).isEqualTo(400);
        assertThat(admin.get("/images/it/render/ct.dcm?render=png&window=40").statusCode()).isEqualTo(400);
        assertThat(admin.get("/images/it/render/ct.dcm?render=png&region=1,2").statusCode()).isEqualTo(400);
        assertThat(admin.get("/images/it/render/ct.gif?render=png&frame=2").statusCode()).isEqualTo(400);
        assertThat(admin.get("/images/it/render/ct.dcm?render=png&frame=5").statusCode()).isEqualTo(422);
    }

    @Test
    void keepsJpegLsAsSentAndRendersItAsItsUncompressedOriginal() throws Exception {
        byte[] stored = admin.get("/images/it/render/jpegls.dcm").body();
        assertThat(stored).isEqualTo(Samples.bytes(Samples.dicom("MR_small_jpeg_ls_lossless.dcm")));
        HttpResponse<byte[]> render = admin.get("/images/it/render/jpegls.dcm?render=png");
        assertThat(render.statusCode()).as(new String(render.body())).isEqualTo(200);
        assertThat(ImageCodec.read(render.body()).sameContent(DicomCodec.read(Samples.dicom("MR_small.dcm"))
                .render())).isTrue();
    }

    @Test
    void rendersRtDoseInRleAsTheUncompressedDose() throws Exception {
        Path codecSamples = Path.of(System.getProperty("medjava.root", "..")).resolve(
                "image-codec/src/test/resources/dicom");
        byte[] rle = Files.readAllBytes(codecSamples.resolve("rtdose_rle.dcm"));
        assertThat(admin.put("/images/it/render/dose-rle.dcm", rle).statusCode()).isIn(201, 204);
        HttpResponse<byte[]> render = admin.get("/images/it/render/dose-rle.dcm?render=png&frame=7");
        assertThat(render.statusCode()).as(new String(render.body())).isEqualTo(200);
        byte[] plain = Samples.bytes(Samples.dicom("rtdose.dcm"));
        assertThat(ImageCodec.read(render.body()).sameContent(DicomCodec.read(plain, 7, Raster.MAX_PIXELS)
                .render())).isTrue();
    }

    @Test
    void keepsAFilteredRenderingAsDerivedDicomThatRendersAsServed() throws Exception {
        String body = "{\"source\": \"it/render/ct.dcm\", \"window\": \"40,400\", \"filters\": [\"blur:n=5\", "
                + "\"sharpen:p=50\"], \"region\": \"10,20,80,60\"}";
        HttpResponse<String> created = admin.sendText(admin.request("/derived")
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonObject answer = Json.createReader(new StringReader(created.body())).readObject();
        String path = answer.getString("path");
        assertThat(path).startsWith("dicom/").endsWith(answer.getString("sopInstanceUid") + ".dcm");
        assertThat(created.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith(path));
        // the derived object shows exactly what the rendered endpoint served for the same request
        Raster served = ImageCodec.read(admin.get("/images/it/render/ct.dcm?render=png&window=40,400"
                + "&region=10,20,80,60&filter=blur:n=5&filter=sharpen:p=50").body());
        byte[] stored = admin.get("/images/" + path).body();
        DicomImage derived = DicomCodec.read(stored, 0, 1 << 24);
        assertSame(derived.render(), served);
        // at the source's depth: a derived CT holding the filtered stored values, with the CT's rescale (HU)
        DicomImage ct = DicomCodec.read(CT);
        GrayRaster16 expected = local.apply("blur", ct.grayRaster(), Region.parse("10,20,80,60"), Map.of("n", "5"),
                Implementation.OPTIMIZED);
        expected = local.apply("sharpen", expected, Region.parse("10,20,80,60"), Map.of("p", "50"),
                Implementation.OPTIMIZED);
        assertThat(derived.attributes().sopClassUid()).isEqualTo("1.2.840.10008.5.1.4.1.1.2");
        assertThat(derived.grayRaster().sameContent(expected)).isTrue();
        assertThat(derived.rescaleIntercept()).isEqualTo(ct.rescaleIntercept());
        HttpResponse<String> indexed = admin.getJson("/index/series/" + answer.getString("seriesUid") + "/instances");
        assertThat(indexed.body()).contains(answer.getString("sopInstanceUid"));

        HttpResponse<String> notDicom = admin.sendText(admin.request("/derived").header("Content-Type",
                "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"source\": \"it/render/ct.gif\"}")));
        assertThat(notDicom.statusCode()).isEqualTo(400);
        assertThat(notDicom.body()).contains("not DICOM");
        StoreClient stranger = new StoreClient(SharedStore.store(), PayaraStore.basic("nobody", "wrong"));
        HttpResponse<String> refused = stranger.sendText(stranger.request("/derived")
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
        assertThat(refused.statusCode()).isEqualTo(401);
    }

    @Test
    void servesTheFilteredStoredValuesAsDicomForAViewerThatWindowsThemItself() throws Exception {
        String query = "?render=dicom&window=40,400&filter=blur:n=3";
        HttpResponse<byte[]> served = admin.get("/images/it/render/ct.dcm" + query);

        assertThat(served.statusCode()).isEqualTo(200);
        assertThat(served.headers().firstValue("Content-Type")).hasValue("application/dicom");
        assertThat(served.headers().firstValue("Server-Timing")).hasValueSatisfying(t -> assertThat(t)
                .contains("filter;dur="));
        DicomImage derived = DicomCodec.read(served.body(), 0, 1 << 24);
        DicomImage ct = DicomCodec.read(CT);
        GrayRaster16 expected = local.apply("blur", ct.grayRaster(), null, Map.of("n", "3"),
                Implementation.OPTIMIZED);
        assertThat(derived.grayRaster().sameContent(expected)).isTrue();
        assertThat(derived.rescaleIntercept()).isEqualTo(ct.rescaleIntercept());
        // windowed in the client, it is what the store renders for the same window; bone too, without a new filter
        assertSame(derived.render(new Window(40, 400)), ImageCodec.read(admin.get("/images/it/render/ct.dcm"
                + query.replace("dicom", "png")).body()));
        assertSame(derived.render(new Window(400, 1800)), ImageCodec.read(admin.get("/images/it/render/ct.dcm"
                + "?render=png&window=400,1800&filter=blur:n=3").body()));
        // revalidation as for any rendering; nothing was stored
        String etag = served.headers().firstValue("ETag").orElseThrow();
        assertThat(admin.send(admin.request("/images/it/render/ct.dcm" + query).header("If-None-Match", etag))
                .statusCode()).isEqualTo(304);
        String series = derived.header().get(com.pixelmed.dicom.TagFromName.SeriesInstanceUID)
                .getSingleStringValueOrEmptyString();
        HttpResponse<String> indexed = admin.getJson("/index/series/" + series + "/instances");
        assertThat(indexed.body()).doesNotContain(derived.attributes().sopInstanceUid());

        HttpResponse<byte[]> gif = admin.get("/images/it/render/ct.gif?render=dicom&filter=blur");
        assertThat(gif.statusCode()).isEqualTo(400);
        assertThat(new String(gif.body(), java.nio.charset.StandardCharsets.UTF_8)).contains("not DICOM");
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 3, unit = java.util.concurrent.TimeUnit.MINUTES)
    void derivesAWholeSixteenBitSeriesAsAJobWithItsProgress() throws Exception {
        HttpResponse<String> submitted = SeriesJobs.submit(admin, DONE_SERIES, "blur:n=3", ",\"window\":\"40,400\"");
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(202);
        String id = SeriesJobs.json(submitted.body()).getString("id");
        assertThat(submitted.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l)
                .endsWith("/jobs/" + id));
        JsonObject done = SeriesJobs.await(admin, id, java.time.Duration.ofMinutes(2), j -> false);
        assertThat(done.getString("state")).as(done.toString()).isEqualTo("DONE");
        assertThat(done.getInt("done")).isEqualTo(4);
        assertThat(done.getInt("total")).isEqualTo(4);
        JsonObject result = SeriesJobs.json(done.getString("result"));
        assertThat(result.getInt("derived")).isEqualTo(4);
        assertThat(result.getString("StudyInstanceUID")).isEqualTo(DONE_SERIES + ".0");
        String series = result.getString("SeriesInstanceUID");

        javax.json.JsonArray instances = Json.createReader(new StringReader(admin.getJson("/index/series/" + series
                + "/instances").body())).readArray();
        assertThat(instances).hasSize(4);
        DicomImage ct = DicomCodec.read(CT);
        GrayRaster16 expected = local.apply("blur", ct.grayRaster(), null, Map.of("n", "3"),
                Implementation.OPTIMIZED);
        java.util.Set<String> sources = new java.util.HashSet<>();
        for (javax.json.JsonValue v : instances) {
            JsonObject i = v.asJsonObject();
            assertThat(i.getString("SeriesInstanceUID")).isEqualTo(series);
            byte[] file = admin.get("/images/" + i.getString("path")).body();
            DicomImage derived = DicomCodec.read(file, 0, 1 << 24);
            assertThat(derived.attributes().sopClassUid()).isEqualTo("1.2.840.10008.5.1.4.1.1.2"); // a CT
            assertThat(derived.header().get(com.pixelmed.dicom.TagFromName.BitsAllocated).getIntegerValues()[0])
                    .isEqualTo(16);
            assertThat(derived.bitsStored()).isEqualTo(ct.bitsStored());
            assertThat(derived.rescaleIntercept()).isEqualTo(ct.rescaleIntercept());
            assertThat(derived.rescaleSlope()).isEqualTo(ct.rescaleSlope());
            assertThat(derived.grayRaster().sameContent(expected)).as("the stored values, blurred").isTrue();
            var ref = (com.pixelmed.dicom.SequenceAttribute) derived.header()
                    .get(com.pixelmed.dicom.TagFromName.SourceImageSequence);
            assertThat(ref.getNumberOfItems()).isEqualTo(1);
            sources.add(ref.getItem(0).getAttributeList().get(com.pixelmed.dicom.TagFromName.ReferencedSOPInstanceUID)
                    .getSingleStringValueOrEmptyString());
        }
        assertThat(sources).containsExactlyInAnyOrder(DONE_SERIES + ".1", DONE_SERIES + ".2", DONE_SERIES + ".3",
                DONE_SERIES + ".4");

        HttpResponse<String> again = SeriesJobs.cancel(admin, id);
        assertThat(again.statusCode()).as("an ended job: " + again.body()).isEqualTo(409);
        assertThat(SeriesJobs.cancel(admin, "no-such-job").statusCode()).isEqualTo(404);
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 3, unit = java.util.concurrent.TimeUnit.MINUTES)
    void aSeriesJobIsCancelledQueuedAtOnceRunningPartWayWithWhatItWroteRemoved() throws Exception {
        // slow chains (oil paint's 16-bit histograms, the straightforward kernels) keep both workers busy
        String slow = ",\"impl\":\"straightforward\"";
        String first = SeriesJobs.json(SeriesJobs.submit(admin, CANCEL_SERIES, "oil-paint:n=11", slow).body())
                .getString("id");
        String second = SeriesJobs.json(SeriesJobs.submit(admin, CANCEL_SERIES, "oil-paint:n=9", slow).body())
                .getString("id");
        String third = SeriesJobs.json(SeriesJobs.submit(admin, CANCEL_SERIES, "blur:n=5", "").body())
                .getString("id");

        HttpResponse<String> queued = SeriesJobs.cancel(admin, third);
        assertThat(queued.statusCode()).as(queued.body()).isEqualTo(200);
        assertThat(SeriesJobs.json(queued.body()).getString("state")).isEqualTo("CANCELLED");

        JsonObject running = SeriesJobs.await(admin, first, java.time.Duration.ofMinutes(1),
                j -> j.getInt("done") >= 1);
        assertThat(running.getString("state")).as(running.toString()).isEqualTo("RUNNING");
        HttpResponse<String> asked = SeriesJobs.cancel(admin, first);
        assertThat(asked.statusCode()).as(asked.body()).isEqualTo(202);
        assertThat(SeriesJobs.json(asked.body()).getBoolean("cancelRequested")).isTrue();
        assertThat(SeriesJobs.cancel(admin, second).statusCode()).isIn(200, 202);

        JsonObject cancelled = SeriesJobs.await(admin, first, java.time.Duration.ofMinutes(2), j -> false);
        assertThat(cancelled.getString("state")).as(cancelled.toString()).isEqualTo("CANCELLED");
        assertThat(cancelled.getString("result")).matches("cancelled after (\\d+) of "
                + SharedStore.MAX_SERIES_INSTANCES + "; the \\1 derived instances written were removed");
        assertThat(SeriesJobs.await(admin, second, java.time.Duration.ofMinutes(2), j -> false).getString("state"))
                .isEqualTo("CANCELLED");
        assertThat(SeriesJobs.job(admin, third).getString("state")).as("never ran").isEqualTo("CANCELLED");
        String seriesOfStudy = admin.getJson("/index/studies/" + CANCEL_SERIES + ".0/series").body();
        assertThat(Json.createReader(new StringReader(seriesOfStudy)).readArray()).as("no derived series left: "
                + seriesOfStudy).hasSize(1);
    }

    @Test
    void aSeriesJobThatCannotSucceedIsRefusedBeforeItIsQueued() throws Exception {
        HttpResponse<String> large = SeriesJobs.submit(admin, LARGE_SERIES, "blur", "");
        assertThat(large.statusCode()).as(large.body()).isEqualTo(413);
        assertThat(large.body()).contains(SharedStore.MAX_SERIES_INSTANCES + 1 + " instances")
                .contains("medjava.jobs.max-series-instances");
        HttpResponse<String> badParam = SeriesJobs.submit(admin, DONE_SERIES, "blur:n=4", "");
        assertThat(badParam.statusCode()).isEqualTo(400);
        assertThat(badParam.body()).contains("odd");
        HttpResponse<String> unknown = SeriesJobs.submit(admin, DONE_SERIES, "blur|sharpn", "");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(unknown.body()).contains("sharpn");
        assertThat(SeriesJobs.submit(admin, "1.2.3.404", "blur", "").statusCode()).isEqualTo(404);
        StoreClient stranger = new StoreClient(SharedStore.store(), PayaraStore.basic("nobody", "wrong"));
        assertThat(SeriesJobs.submit(stranger, DONE_SERIES, "blur", "").statusCode()).isEqualTo(401);
    }

    private static void assertSame(Raster actual, Raster expected) {
        assertThat(actual.width() + "x" + actual.height()).isEqualTo(expected.width() + "x" + expected.height());
        assertThat(actual.rgb()).isEqualTo(expected.rgb());
    }
}
