package org.medjava.store.server.pacs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.medjava.store.server.pacs.DicomJson.object;
import static org.medjava.store.server.pacs.DicomJson.value;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.testkit.NestedDicom;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.http.Multipart;
import org.medjava.store.testkit.pacs.Dcmtk;
import org.medjava.store.testkit.pacs.PacsStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * A DICOM object whose sequences nest 2,000 levels deep (the stack of a recursive reader overflows near 1,050), at
 * every door of a real store: PUT, STOW-RS and C-STORE refuse it with the reason and store nothing, a stored object it
 * would replace stays, and one placed in the data directory behind the store's back neither fails the index rebuild
 * (200, the object reported) nor its rendering (422). The PACS store, because C-STORE needs its DICOM port.
 */
@ExtendWith(PacsStore.class)
class ParserLimitsIT {
    private static final String REASON = "DICOM sequence nesting deeper than 64 levels";
    private static final String BOUNDARY = "parser-limits-it";

    @TempDir
    static Path work;
    static StoreClient admin;

    @BeforeAll
    static void connect() {
        admin = StoreClient.admin(PacsStore.store());
    }

    private static byte[] deep(String uidRoot) {
        return NestedDicom.part10(2000, NestedDicom.Syntax.EXPLICIT_LE, true, uidRoot);
    }

    private static String index(String studyUid) throws Exception {
        return admin.getJson("/index/studies?StudyInstanceUID=" + studyUid).body();
    }

    @Test
    void putRefusesWith422AndKeepsWhatWasStored() throws Exception {
        HttpResponse<String> created = admin.put("/images/it/limits/deep.dcm", deep("1.2.826.0.1.3680043.10.501"));
        assertThat(created.statusCode()).isEqualTo(422);
        assertThat(created.body()).contains(REASON).doesNotContain("Exception", "Payara", "at org.", "at com.");
        assertThat(admin.get("/images/it/limits/deep.dcm").statusCode()).isEqualTo(404);

        assertThat(admin.put("/images/it/limits/keep.dcm", Samples.bytes(Samples.dicom("MR_small.dcm"))).statusCode())
                .isEqualTo(201);
        HttpResponse<byte[]> before = admin.get("/images/it/limits/keep.dcm");
        HttpResponse<String> replace = admin.put("/images/it/limits/keep.dcm", deep("1.2.826.0.1.3680043.10.502"));
        assertThat(replace.statusCode()).isEqualTo(422);
        assertThat(replace.body()).contains(REASON);
        HttpResponse<byte[]> after = admin.get("/images/it/limits/keep.dcm");
        assertThat(after.body()).isEqualTo(before.body());
        assertThat(after.headers().firstValue("ETag")).isEqualTo(before.headers().firstValue("ETag"));
        assertThat(index("1.2.826.0.1.3680043.10.501.1")).isEqualTo("[]");
    }

    @Test
    void stowRefusesThePartWithCannotUnderstandAndTheReason() throws Exception {
        HttpResponse<String> r = admin.sendText(admin.request("/dicomweb/studies")
                .header("Content-Type", "multipart/related; type=\"application/dicom\"; boundary=" + BOUNDARY)
                .header("Accept", "application/dicom+json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(Multipart.dicom(BOUNDARY,
                        List.of(deep("1.2.826.0.1.3680043.10.503"))))));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(409);
        JsonObject failed = object(r.body()).getJsonObject("00081198").getJsonArray("Value").getJsonObject(0);
        assertThat(value(failed, "00081197")).isEqualTo(Integer.toString(0xC000));
        assertThat(r.headers().firstValue("Warning")).get(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .contains(REASON);
        assertThat(index("1.2.826.0.1.3680043.10.503.1")).isEqualTo("[]");
    }

    @Test
    void cStoreAnswersCannotUnderstandWithTheReasonAndTheAssociationGoesOn() throws Exception {
        Path file = Files.write(work.resolve("deep.dcm"), deep("1.2.826.0.1.3680043.10.504"));
        Path good = Files.write(work.resolve("good.dcm"), NestedDicom.part10(3, NestedDicom.Syntax.EXPLICIT_LE,
                false, "1.2.826.0.1.3680043.10.505"));

        Command.Result r = Dcmtk.store(List.of("-d"), file, good); // -d: the responses in full, Error Comment too

        assertThat(r.output()).containsSubsequence("DIMSE Status                  : 0xc000: Error: Cannot understand",
                "(0000,0902) LO [malformed: " + REASON + "]", "DIMSE Status                  : 0x0000: Success");
        assertThat(index("1.2.826.0.1.3680043.10.504.1")).isEqualTo("[]");
        assertThat(index("1.2.826.0.1.3680043.10.505.1")).contains("1.2.826.0.1.3680043.10.505.1");
        assertThat(PacsStore.store().dataDir().resolve("images/dicom/NESTED/1.2.826.0.1.3680043.10.504.1"))
                .doesNotExist();
    }

    @Test
    void anObjectPlacedBehindTheStoresBackIsReportedByTheRebuildAndRefusedByTheRenderer() throws Exception {
        Path placed = PacsStore.store().dataDir().resolve("images/it/limits/placed/deep.dcm");
        Files.createDirectories(placed.getParent());
        Files.write(placed, deep("1.2.826.0.1.3680043.10.506"));
        try {
            HttpResponse<String> report = admin.sendText(admin.request("/admin/index/rebuild")
                    .POST(HttpRequest.BodyPublishers.noBody()));
            assertThat(report.statusCode()).as(report.body()).isEqualTo(200);
            JsonObject failed = object(report.body()).getJsonObject("failed");
            assertThat(failed.getString("it/limits/placed/deep.dcm")).contains(REASON);
            assertThat(index("1.2.826.0.1.3680043.10.506.1")).isEqualTo("[]");

            HttpResponse<String> render = admin.sendText(admin.request(
                    "/images/it/limits/placed/deep.dcm?render=png"));
            assertThat(render.statusCode()).isEqualTo(422);
            assertThat(render.body()).contains(REASON).doesNotContain("Exception", "Payara");
        } finally {
            Files.deleteIfExists(placed); // other tests rebuild this store's index too
        }
    }
}
