package org.medjava.store.server.pacs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.medjava.store.server.pacs.DicomJson.array;
import static org.medjava.store.server.pacs.DicomJson.object;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.json.JsonArray;
import javax.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.filter.runtime.PluginDirectory;
import org.medjava.store.core.testsupport.PixelData;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.pacs.Dcmtk;
import org.medjava.store.testkit.pacs.PacsOrthanc;
import org.medjava.store.testkit.pacs.PacsStore;
import org.medjava.store.testkit.peers.Orthanc;
import org.medjava.store.testkit.store.StoreClient;

/**
 * The store against Orthanc, started here: the store's SCU (over its REST endpoints) echoes, queries, retrieves by
 * C-MOVE and C-GET, and sends; Orthanc's DICOMweb client stores into and reads from the store's DICOMweb
 * endpoints; Orthanc's DIMSE client stores into and queries the store's SCP. Pixel data are compared byte for byte
 * wherever an object crossed.
 */
@ExtendWith(PacsStore.class)
class OrthancIT {

    @RegisterExtension
    static final PacsOrthanc peer = new PacsOrthanc("");
    @TempDir
    static Path work;
    static StoreClient admin;

    @BeforeAll
    static void admin() {
        admin = StoreClient.admin(PacsStore.store());
    }

    /** Uploads a test study into Orthanc; returns Orthanc's id of the study. */
    private static String uploadToOrthanc(TestStudy study) throws Exception {
        String id = null;
        for (TestStudy.Instance i : study.instances()) {
            HttpResponse<String> r = peer.orthanc().upload(i.file());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            id = object(r.body()).getString("ParentStudy");
        }
        return id;
    }

    /** Orthanc's ids of the instances of a study. */
    private static List<String> orthancInstances(String studyUid) throws Exception {
        return array(peer.orthanc().post("/tools/find", Orthanc.findQuery("Instance", Map.of("StudyInstanceUID",
                studyUid))).body()).getValuesAs(javax.json.JsonString.class).stream().map(s -> s.getString()).toList();
    }

    private static Path stored(TestStudy study, TestStudy.Instance i) {
        return PacsStore.store().dataDir().resolve("images").resolve(study.storePath(i));
    }

    /** Every instance Orthanc holds of the study has the pixel data of one of the study's originals. */
    private static void assertOrthancHoldsThePixelsOf(TestStudy study) throws Exception {
        List<String> ids = orthancInstances(study.studyUid());
        assertThat(ids).hasSize(study.instances().size());
        for (String id : ids) {
            Path file = Files.write(work.resolve(id + ".dcm"),
                    peer.orthanc().getBytes("/instances/" + id + "/file").body());
            byte[] pixels = PixelData.of(file);
            boolean known = false;
            for (TestStudy.Instance i : study.instances()) {
                known |= java.util.Arrays.equals(pixels, PixelData.of(i.file()));
            }
            assertThat(known).as("Orthanc's " + id).isTrue();
        }
    }

    private static void assertStoreHoldsThePixelsOf(TestStudy study) throws Exception {
        for (TestStudy.Instance i : study.instances()) {
            assertThat(stored(study, i)).as(i.sample()).exists();
            assertThat(PixelData.of(stored(study, i))).as(i.sample()).isEqualTo(PixelData.of(i.file()));
        }
    }

    @Test
    void storeScuEchoesSendsQueriesAndRetrieves() throws Exception {
        assertThat(admin.postJson("/pacs/remotes/" + PacsStore.ORTHANC_AE + "/echo", "").body())
                .contains("\"ok\":true");

        TestStudy ours = TestStudy.create(work.resolve("ours"), "ORT-SEND", "CT_small.dcm", "MR_small_RLE.dcm");
        Dcmtk.storeAll(ours);
        HttpResponse<String> sent = admin.postJson("/pacs/remotes/ORTHANC/send", "{\"StudyInstanceUID\":\""
                + ours.studyUid() + "\"}");
        assertThat(sent.statusCode()).as(sent.body()).isEqualTo(200);
        assertThat(object(sent.body()).getInt("completed")).isEqualTo(2);
        assertOrthancHoldsThePixelsOf(ours);

        TestStudy moved = TestStudy.create(work.resolve("moved"), "ORT-MOVE", "CT_small.dcm", "MR_small.dcm");
        uploadToOrthanc(moved);
        JsonArray found = array(admin.getJson("/pacs/remotes/ORTHANC/studies?PatientID=ORT-MOVE").body());
        assertThat(found).hasSize(1);
        assertThat(found.getJsonObject(0).getString("StudyInstanceUID")).isEqualTo(moved.studyUid());
        assertThat(array(admin.getJson("/pacs/remotes/ORTHANC/studies/" + moved.studyUid() + "/series").body()))
                .hasSize(2);
        HttpResponse<String> move = admin.postJson("/pacs/remotes/ORTHANC/retrieve", "{\"StudyInstanceUID\":\""
                + moved.studyUid() + "\",\"method\":\"move\"}");
        assertThat(move.statusCode()).as(move.body()).isEqualTo(200);
        assertThat(object(move.body()).getInt("status")).isZero();
        assertStoreHoldsThePixelsOf(moved);

        TestStudy got = TestStudy.create(work.resolve("got"), "ORT-GET", "MR_small.dcm", "CT_small.dcm");
        uploadToOrthanc(got);
        HttpResponse<String> get = admin.postJson("/pacs/remotes/ORTHANC/retrieve", "{\"StudyInstanceUID\":\""
                + got.studyUid() + "\",\"method\":\"get\"}");
        assertThat(object(get.body()).getInt("stored")).as(get.body()).isEqualTo(2);
        assertStoreHoldsThePixelsOf(got);
    }

    @Test
    void scuEndpointsRefuseWhatTheyCannotDo() throws Exception {
        assertThat(admin.postJson("/pacs/remotes/NOWHERE/echo", "").statusCode()).isEqualTo(404);
        assertThat(admin.postJson("/pacs/remotes/ORTHANC/retrieve", "{\"StudyInstanceUID\":\"1.2.*\"}").statusCode())
                .isEqualTo(400);
        assertThat(admin.postJson("/pacs/remotes/ORTHANC/retrieve", "{\"Colour\":\"red\"}").statusCode())
                .isEqualTo(400);
        assertThat(admin.postJson("/pacs/remotes/ORTHANC/send", "{\"StudyInstanceUID\":\"1.2.3.4.5\"}").statusCode())
                .isEqualTo(404);
        assertThat(admin.getJson("/pacs/remotes/ORTHANC/studies?NotAKeyword=1").statusCode()).isEqualTo(400);
        StoreClient anonymous = new StoreClient(PacsStore.store(), null);
        assertThat(anonymous.getJson("/pacs/remotes").statusCode()).isEqualTo(401);
    }

    @Test
    void orthancsDicomWebClientStoresIntoAndReadsFromTheStore() throws Exception {
        TestStudy study = TestStudy.create(work.resolve("web"), "ORT-WEB", "CT_small.dcm", "MR_small.dcm",
                "SC_rgb_jpeg_dcmtk.dcm");
        String orthancId = uploadToOrthanc(study);

        HttpResponse<String> stow = peer.orthanc().post("/dicom-web/servers/medjava/stow",
                "{\"Resources\":[\"" + orthancId + "\"]}");
        assertThat(stow.statusCode()).as(stow.body() + peer.orthanc().log()).isEqualTo(200);
        assertStoreHoldsThePixelsOf(study);

        HttpResponse<String> qido = peer.orthanc().post("/dicom-web/servers/medjava/qido",
                "{\"Uri\":\"/studies\",\"Arguments\":{\"PatientID\":\"ORT-WEB\"}}");
        assertThat(qido.statusCode()).isEqualTo(200);
        assertThat(qido.body()).contains(study.studyUid());

        assertThat(peer.orthanc().delete("/studies/" + orthancId).statusCode()).isEqualTo(200);
        assertThat(orthancInstances(study.studyUid())).isEmpty();
        HttpResponse<String> retrieve = peer.orthanc().post("/dicom-web/servers/medjava/retrieve",
                "{\"Resources\":[{\"Study\":\"" + study.studyUid() + "\"}]}");
        assertThat(retrieve.statusCode()).as(retrieve.body() + peer.orthanc().log()).isEqualTo(200);
        assertOrthancHoldsThePixelsOf(study);
    }

    @Test
    void orthancsDimseClientStoresIntoAndQueriesTheStore() throws Exception {
        TestStudy study = TestStudy.create(work.resolve("dimse"), "ORT-DIMSE", "CT_small.dcm",
                "MR_small_jpeg_ls_lossless.dcm");
        String orthancId = uploadToOrthanc(study);

        HttpResponse<String> store = peer.orthanc().post("/modalities/medjava/store", "{\"Resources\":[\"" + orthancId
                + "\"]}");
        assertThat(store.statusCode()).as(store.body() + peer.orthanc().log()).isEqualTo(200);
        assertStoreHoldsThePixelsOf(study);

        HttpResponse<String> query = peer.orthanc().post("/modalities/medjava/query", "{\"Level\":\"Study\",\"Query\":"
                + "{\"StudyInstanceUID\":\"" + study.studyUid() + "\",\"NumberOfStudyRelatedInstances\":\"\"}}");
        assertThat(query.statusCode()).as(query.body()).isEqualTo(200);
        String queryId = object(query.body()).getString("ID");
        JsonArray answers = array(peer.orthanc().get("/queries/" + queryId + "/answers?expand").body());
        assertThat(answers).hasSize(1);
        assertThat(answers.getJsonObject(0).toString()).contains(study.studyUid());
    }
    /**
     * A CT despeckled on the store (issue 17's derived object: the filtered stored values at the source's depth, with
     * its rescale) and sent by the store's SCU opens in Orthanc as a CT whose decoded Hounsfield units are the filter's
     * output, and in DCMTK, whose own windowing of it matches the store's to within DCMTK's rounding.
     */
    @Test
    void derivedCtsOpenInOrthancAndDcmtkWithTheirHounsfieldUnits() throws Exception {
        TestStudy study = TestStudy.create(work.resolve("derived"), "ORT-DERIVED", "CT_small.dcm");
        Dcmtk.storeAll(study);
        TestStudy.Instance source = study.instances().get(0);
        HttpResponse<String> created = admin.postJson("/derived", "{\"source\": \"" + study.storePath(source)
                + "\", \"window\": \"40,400\", \"filters\": [\"despeckle:n=3\"]}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonObject answer = object(created.body());
        byte[] derivedFile = admin.get("/images/" + answer.getString("path")).body();
        DicomImage derived = DicomCodec.read(derivedFile, 0, 1 << 24);
        DicomImage ct = DicomCodec.read(source.file());
        DicomImage expected;
        try (FilterRegistry local = new FilterRegistry(Files.createTempDirectory(work, "filters"))) {
            PluginDirectory.loadAll(local, Path.of(System.getProperty("store.plugins")));
            expected = ct.withStoredValues(local.apply("despeckle", ct.grayRaster(), null, Map.of("n", "3"),
                    Implementation.OPTIMIZED));
        }
        assertThat(derived.grayRaster().sameContent(expected.grayRaster())).isTrue();

        HttpResponse<String> sent = admin.postJson("/pacs/remotes/ORTHANC/send", "{\"StudyInstanceUID\":\""
                + answer.getString("studyUid") + "\", \"SeriesInstanceUID\":\"" + answer.getString("seriesUid")
                + "\"}");
        assertThat(sent.statusCode()).as(sent.body()).isEqualTo(200);
        assertThat(object(sent.body()).getInt("completed")).isEqualTo(1);
        JsonArray found = array(peer.orthanc().post("/tools/find", Orthanc.findQuery("Instance",
                Map.of("SOPInstanceUID", answer.getString("sopInstanceUid")))).body());
        assertThat(found).hasSize(1);
        String id = found.getString(0);
        JsonObject tags = object(peer.orthanc().get("/instances/" + id + "/simplified-tags").body());
        assertThat(tags.getString("SOPClassUID")).isEqualTo("1.2.840.10008.5.1.4.1.1.2");
        assertThat(tags.getString("ImageType")).startsWith("DERIVED\\SECONDARY");
        assertThat(tags.getString("BitsAllocated")).isEqualTo("16");
        assertThat(Double.parseDouble(tags.getString("RescaleIntercept"))).isEqualTo(ct.rescaleIntercept());
        // Orthanc decodes the frame and applies the rescale itself: its HU are the filter's output, pixel by pixel
        float[] hu = npyFloats(peer.orthanc().getBytes("/instances/" + id + "/frames/0/numpy").body(), ct.width(),
                ct.height());
        for (int y = 0; y < ct.height(); y++) {
            for (int x = 0; x < ct.width(); x++) {
                assertThat((double) hu[y * ct.width() + x]).as("HU at %d,%d", x, y)
                        .isEqualTo(expected.modalityValue(x, y));
            }
        }

        // DCMTK reads it as a derived CT and windows it (soft tissue, then bone) as the store does
        Path file = Files.write(work.resolve("derived-ct.dcm"), derivedFile);
        Command.Result dump = Command.run(Command.of("dcmdump", file)).assertOk();
        assertThat(dump.output()).contains("CTImageStorage", "DERIVED\\SECONDARY", "(0028,0100) US 16");
        for (Window w : List.of(new Window(40, 400), new Window(400, 1800))) {
            Path png = work.resolve("derived-" + (int) w.center() + ".png");
            Command.run(Command.of("dcm2pnm", "+Ww", (int) w.center(), (int) w.width(), "--write-png", file, png))
                    .assertOk();
            Raster dcmtk = ImageCodec.read(Files.readAllBytes(png));
            Raster ours = derived.render(w);
            int worst = 0;
            for (int p = 0; p < ours.rgb().length; p++) {
                worst = Math.max(worst, Math.abs((ours.rgb()[p] & 0xff) - (dcmtk.rgb()[p] & 0xff)));
            }
            assertThat(worst).as("largest grey-level difference to DCMTK at %s", w).isLessThanOrEqualTo(1);
        }
    }

    /** The values of a little-endian float32 NumPy array (Orthanc's /numpy: shape (height, width, 1)). */
    private static float[] npyFloats(byte[] npy, int width, int height) {
        assertThat(new String(npy, 1, 5, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("NUMPY");
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(npy).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int headerLength = npy[6] == 1 ? b.getShort(8) & 0xffff : b.getInt(8);
        int start = (npy[6] == 1 ? 10 : 12) + headerLength;
        String header = new String(npy, start - headerLength, headerLength, java.nio.charset.StandardCharsets.US_ASCII);
        assertThat(header.replace(" ", "")).contains("'<f4'").contains("(" + height + "," + width + ",1)");
        float[] values = new float[width * height];
        b.position(start);
        b.asFloatBuffer().get(values);
        return values;
    }
}
