package org.medjava.store.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.index.InstanceQuery;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.core.storage.LocalFileStorage;
import org.medjava.store.core.testsupport.TestCallers;
import org.medjava.store.testkit.Samples;

/**
 * {@link DicomRules}, the one rule set of every door: each object of the SOP-class corpus and the bad samples gets
 * the verdict written here, and the same one by HTTP PUT ({@link Ingest#put}) and by the network
 * ({@link Ingest#receive}: C-STORE, STOW-RS) — each door on its own store, so neither sees the other's copy.
 */
class DicomRulesTest {

    /** File (in testdata/sop-classes, or testdata/samples/dicom with "samples/") and the problem; null: stored. */
    private static final Map<String, DicomRules.Problem> VERDICTS = new LinkedHashMap<>();

    static {
        for (String stored : new String[] {"test-SR.dcm", "reportsi.dcm", "kos.dcm", "gsps.dcm", "rtplan.dcm",
                "rtstruct.dcm", "rtdose_rle_1frame.dcm", "waveform_ecg.dcm", "pdf.dcm",
                "cda.dcm", "raw.dcm", "samples/CT_small.dcm", "samples/liver_1frame.dcm", "samples/rtdose.dcm",
                "samples/MR_small_jpeg_ls_lossless.dcm"}) {
            VERDICTS.put(stored, null);
        }
        VERDICTS.put("ct-no-study-uid.dcm", DicomRules.Problem.MISSING_ATTRIBUTE);
        VERDICTS.put("sr-no-study-uid.dcm", DicomRules.Problem.MISSING_ATTRIBUTE);
        VERDICTS.put("hotiron.dcm", DicomRules.Problem.NOT_KEPT); // a colour palette: no patient, no study
        VERDICTS.put("dicomdir.dcm", DicomRules.Problem.NOT_KEPT); // a DICOMDIR: no SOP Class UID in its data set
        VERDICTS.put("ct-no-pixel-data.dcm", DicomRules.Problem.MISSING_PIXEL_DATA);
        VERDICTS.put("rtplan_truncated.dcm", DicomRules.Problem.TRUNCATED);
        VERDICTS.put("samples/MR_truncated.dcm", DicomRules.Problem.TRUNCATED);
        VERDICTS.put("samples/meta_missing_tsyntax.dcm", DicomRules.Problem.MALFORMED);
    }

    @TempDir
    Path dir;
    private Door http;
    private Door network;

    /** A store of its own: repository, index, ingest. */
    private record Door(DicomIndex index, Ingest ingest, ImageRepository images) {
        static Door open(Path dir) throws IOException {
            DicomIndex index = new DicomIndex(IndexDatabase.h2(dir.resolve("index")));
            ImageRepository images = new ImageRepository(new LocalFileStorage(dir.resolve("images")), 1 << 24);
            return new Door(index, Ingest.builder(images, index, new UploadValidator(1 << 24), DuplicatePolicy.REJECT)
                    .build(),
                    images);
        }
    }

    @BeforeEach
    void open() throws IOException {
        http = Door.open(dir.resolve("http"));
        network = Door.open(dir.resolve("network"));
    }

    @AfterEach
    void close() {
        http.index().close();
        network.index().close();
    }

    private static Path file(String name) {
        return name.startsWith("samples/") ? Samples.dicom(name.substring("samples/".length()))
                : Samples.sopClass(name);
    }

    @Test
    void everyDoorGivesEachObjectTheSameVerdictWithItsReasonNamed() throws Exception {
        for (Map.Entry<String, DicomRules.Problem> e : VERDICTS.entrySet()) {
            String name = e.getKey();
            byte[] bytes = Files.readAllBytes(file(name));
            String byHttp = put(name, bytes);
            String byNetwork = receive(bytes);
            DicomRules.Problem expected = e.getValue();
            if (expected == null) {
                assertThat(byHttp).as(name + " over HTTP").isNull();
                assertThat(byNetwork).as(name + " from the network").isNull();
            } else {
                assertThat(byHttp).as(name + " over HTTP").startsWith(expected.words + ": ");
                assertThat(byNetwork).as(name + " from the network").isEqualTo(byHttp);
            }
        }
        long stored = VERDICTS.values().stream().filter(v -> v == null).count();
        assertThat(http.index().count()).isEqualTo(stored); // every stored object indexed, by either door
        assertThat(network.index().count()).isEqualTo(stored);
    }

    @Test
    void anObjectWithoutStudyInstanceUidIsRefusedNotStoredAndLeftOutOfNothing() throws Exception {
        byte[] bytes = Files.readAllBytes(Samples.sopClass("ct-no-study-uid.dcm"));
        assertThat(put("ct-no-study-uid.dcm", bytes))
                .isEqualTo("missing required attribute: StudyInstanceUID (0020,000D)");
        assertThat(Files.exists(dir.resolve("http/images/x/ct-no-study-uid.dcm"))).isFalse();
        assertThat(http.index().count()).isZero();
    }

    @Test
    void aCompleteImageWithoutPixelDataIsNotCalledTruncated() throws Exception {
        String reason = put("ct.dcm", Files.readAllBytes(Samples.sopClass("ct-no-pixel-data.dcm")));
        assertThat(reason).startsWith("missing Pixel Data: CT Image needs Pixel Data (7FE0,0010)")
                .doesNotContain("truncated");
    }

    @Test
    void nonImageObjectsAreIndexedAtEveryLevel() throws Exception {
        assertThat(receive(Files.readAllBytes(Samples.sopClass("test-SR.dcm")))).isNull();
        var instances = network.index().instances(null, InstanceQuery.all());
        assertThat(instances).hasSize(1);
        assertThat(instances.get(0).sopClassUid()).isEqualTo("1.2.840.10008.5.1.4.1.1.88.33");
        assertThat(network.index().studies(org.medjava.store.core.index.StudyQuery.all())).hasSize(1);
    }

    @Test
    void storageSopClassesAreThoseOfAnnexB() {
        assertThat(DicomRules.isStorageSopClass("1.2.840.10008.5.1.4.1.1.2")).isTrue(); // CT
        assertThat(DicomRules.isStorageSopClass("1.2.840.10008.5.1.4.1.1.88.33")).isTrue(); // Comprehensive SR
        assertThat(DicomRules.isStorageSopClass("1.2.840.10008.5.1.4.1.1.481.2")).isTrue(); // RT Dose
        assertThat(DicomRules.isStorageSopClass("1.2.840.10008.5.1.4.1.1.104.1")).isTrue(); // Encapsulated PDF
        assertThat(DicomRules.isStorageSopClass("1.2.840.10008.5.1.4.39.1")).isTrue(); // Color Palette
        assertThat(DicomRules.isStorageSopClass("1.2.840.10008.5.1.4.1.1.999")).isTrue(); // newer than PixelMed
        assertThat(DicomRules.isStorageSopClass("1.2.840.10008.1.1")).isFalse(); // Verification
        assertThat(DicomRules.isStorageSopClass("1.2.840.10008.5.1.4.1.2.2.1")).isFalse(); // Study Root FIND
        assertThat(DicomRules.isStorageSopClass("")).isFalse();
        assertThat(DicomRules.needsPixelData("1.2.840.10008.5.1.4.1.1.2")).isTrue();
        assertThat(DicomRules.needsPixelData("1.2.840.10008.5.1.4.1.1.481.2")).isFalse(); // a DVH-only dose exists
        assertThat(DicomRules.describe("1.2.840.10008.5.1.4.1.1.88.33")).isEqualTo("structured report");
        assertThat(DicomRules.describe("1.2.840.10008.5.1.4.1.1.9.1.1")).isEqualTo("Twelve Lead ECG");
    }

    @Test
    void aReasonNamesItsProblem() {
        assertThat(DicomRules.Problem.of("truncated: x")).contains(DicomRules.Problem.TRUNCATED);
        assertThat(DicomRules.Problem.of("missing Pixel Data: x")).contains(DicomRules.Problem.MISSING_PIXEL_DATA);
        assertThat(DicomRules.Problem.of("something else")).isEmpty();
    }

    /** The HTTP door's verdict: null when stored, else the reason of its 4xx. */
    private String put(String name, byte[] bytes) throws IOException {
        try {
            http.ingest().put(StorePath.parse("x/" + name), new ByteArrayInputStream(bytes), bytes.length,
                    "application/dicom", Preconditions.NONE, TestCallers.USER);
            return null;
        } catch (StoreException e) {
            assertThat(e.kind()).isIn(StoreException.Kind.UNPROCESSABLE, StoreException.Kind.UNSUPPORTED_MEDIA_TYPE);
            return e.getMessage();
        }
    }

    /** The network door's verdict: null when stored, else its failure's reason. */
    private String receive(byte[] bytes) throws IOException {
        Path staged = network.images().newStagingFile("test-");
        Files.write(staged, bytes);
        try {
            network.ingest().receive(staged, Expected.NOTHING, TestCallers.USER);
            return null;
        } catch (IngestFailure e) {
            return e.getMessage();
        }
    }
    /** The renderer asks why an object has no image: a hostile one must not overflow PixelMed's stack on the way. */
    @Test
    void askingWhetherADeeplyNestedObjectHasPixelsAnswersNothingAndDoesNotOverflow() throws Exception {
        Path deep = Files.write(dir.resolve("deep.dcm"),
                org.medjava.store.core.testsupport.HostileBodies.nestedDicom(5000, "1.2.826.0.1.3680043.10.507"));
        assertThat(DicomRules.noPixelData(deep)).isNull();
        Path sr = Samples.sopClass("test-SR.dcm");
        assertThat(DicomRules.noPixelData(sr)).startsWith("no pixel data: structured report");
    }
}
