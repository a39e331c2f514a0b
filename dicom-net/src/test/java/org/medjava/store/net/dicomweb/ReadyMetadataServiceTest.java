package org.medjava.store.net.dicomweb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.ImageCodec;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.correct.Correction;
import org.medjava.store.core.correct.Corrector;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.index.ReadyMetadata;
import org.medjava.store.core.index.TestDicom;
import org.medjava.store.core.index.TrashScope;
import org.medjava.store.core.index.Trashed;
import org.medjava.store.core.index.Visibility;
import org.medjava.store.core.ingest.DuplicatePolicy;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.metrics.StoreMetrics;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.query.ArchiveSearch;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.core.storage.LocalFileStorage;
import org.medjava.store.core.testsupport.TestCallers;
import org.medjava.store.core.trash.Trash;

/**
 * Ready-made series and study metadata on a real index, repository, ingest, trash and corrector (H2): made once
 * and then served as kept, and every write that changes a series — a new instance, an overwrite, a deletion into
 * the trash, a restore, a correction, a purge — changes what is served next, which is then what building it anew
 * from the index gives.
 */
class ReadyMetadataServiceTest {
    private static final String STUDY = "1.2.826.34.1";
    private static final String SERIES = STUDY + ".1";
    private static final String OTHER_SERIES = STUDY + ".2";
    private static final DicomWebUrls URLS = new DicomWebUrls("http://store.test/dicomweb");

    @TempDir
    Path tmp;

    private DicomIndex index;
    private ImageRepository images;
    private Ingest ingest;
    private Trash trash;
    private ReadyMetadataService ready;
    private WadoService wado;

    @BeforeEach
    void setUp() throws IOException {
        index = new DicomIndex(IndexDatabase.h2(Files.createDirectories(tmp.resolve("db"))));
        images = new ImageRepository(new LocalFileStorage(Files.createDirectories(tmp.resolve("images"))), 1 << 24);
        ingest = Ingest.builder(images, index, new UploadValidator(ImageCodec.DEFAULT_MAX_PIXELS),
                DuplicatePolicy.REJECT).build();
        trash = new Trash(index, images, new Trash.Settings(Duration.ZERO, 1, 0), e -> { }, StoreMetrics.NONE,
                Clock.systemUTC());
        wado = new WadoService(new ArchiveSearch(index), index, images, "TEST");
        ready = new ReadyMetadataService(wado, index, Visibility.everything());
        for (int i = 1; i <= 3; i++) {
            put("s/a" + i + ".dcm", ct(SERIES, i));
        }
        put("s/b1.dcm", ct(OTHER_SERIES, 1));
    }

    @AfterEach
    void tearDown() {
        index.close();
    }

    private static TestDicom ct(String series, int n) {
        return TestDicom.ct().patient("R1", "Ready^One").study(STUDY, "20260101").series(series, "CT", 1)
                .instance(series + "." + n, n);
    }

    private void put(String path, TestDicom dicom) throws IOException {
        Path file = dicom.writeTo(tmp.resolve("src-" + path.replace('/', '-') + "-" + System.nanoTime()));
        try (InputStream in = Files.newInputStream(file)) {
            ingest.put(StorePath.parse(path), in, Files.size(file), "application/dicom", Preconditions.NONE,
                    TestCallers.USER);
        }
    }

    private static String json(ReadyMetadata made) throws IOException {
        try (InputStream in = ReadyMetadataService.json(made)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** What the index holds now, built without anything kept. */
    private String fresh(String series) {
        return wado.metadata(wado.select(STUDY, series, null), URLS);
    }

    /** Series and study served, and each equal to what building them now gives. */
    private ReadyMetadata[] servedAsBuilt() throws IOException {
        ReadyMetadata series = ready.series(STUDY, SERIES, URLS);
        ReadyMetadata study = ready.study(STUDY, URLS);
        assertThat(json(series)).isEqualTo(fresh(SERIES));
        assertThat(json(study)).isEqualTo(fresh(null));
        assertThat(series.jsonLength()).isEqualTo(fresh(SERIES).getBytes(StandardCharsets.UTF_8).length);
        return new ReadyMetadata[] {series, study};
    }

    @Test
    void madeOnceThenServedAsKeptUntilAWrite() throws IOException {
        ReadyMetadata first = ready.series(STUDY, SERIES, URLS);
        assertThat(first.instances()).isEqualTo(3);
        assertThat(first.patientId()).isEqualTo("R1");
        assertThat(json(first)).startsWith("[{").contains("http://store.test/dicomweb/studies/" + STUDY + "/series/"
                + SERIES + "/instances/" + SERIES + ".2");
        assertThat(first.gzip().length).isLessThan((int) first.jsonLength());

        ReadyMetadata again = ready.series(STUDY, SERIES, URLS);
        assertThat(index.readyMetadata(ReadyMetadata.Level.SERIES, SERIES, "1 " + URLS.base())).isPresent();
        assertThat(again.gzip()).isEqualTo(first.gzip());
        assertThat(ReadyMetadataService.etag(again, URLS)).isEqualTo(ReadyMetadataService.etag(first, URLS));
        ReadyMetadata elsewhere = ready.series(STUDY, SERIES, new DicomWebUrls("https://other.test/dicomweb"));
        assertThat(json(elsewhere)).contains("https://other.test/dicomweb/").doesNotContain("store.test");
    }

    @Test
    void aNewInstanceAndAnOverwriteAreServedAtOnce() throws IOException {
        ReadyMetadata[] before = servedAsBuilt();

        put("s/a4.dcm", ct(SERIES, 4));
        ReadyMetadata[] added = servedAsBuilt();
        assertThat(added[0].instances()).isEqualTo(4);
        assertThat(added[1].instances()).isEqualTo(5);
        assertThat(ReadyMetadataService.etag(added[0], URLS)).isNotEqualTo(ReadyMetadataService.etag(before[0], URLS));

        put("s/a1.dcm", ct(SERIES, 1).set("SeriesDescription", "overwritten"));
        ReadyMetadata[] overwritten = servedAsBuilt();
        assertThat(json(overwritten[0])).contains("overwritten");
        assertThat(json(overwritten[1])).contains("overwritten");
    }

    @Test
    void aDeletionIntoTheTrashARestoreAndAPurgeAreServedAtOnce() throws IOException {
        servedAsBuilt();

        Trashed gone = trash.delete(TrashScope.instance(STUDY, SERIES, SERIES + ".2"), "wrong", true,
                TestCallers.USER);
        ReadyMetadata[] deleted = servedAsBuilt();
        assertThat(deleted[0].instances()).isEqualTo(2);
        assertThat(json(deleted[0])).doesNotContain(SERIES + ".2\"");

        trash.restore(gone.trashId(), TestCallers.USER);
        assertThat(servedAsBuilt()[0].instances()).isEqualTo(3);

        trash.delete(TrashScope.series(STUDY, OTHER_SERIES), "wrong", true, TestCallers.USER);
        ReadyMetadata study = ready.study(STUDY, URLS);
        assertThat(study.instances()).isEqualTo(3);
        trash.purgeDue();
        assertThat(servedAsBuilt()[1].instances()).isEqualTo(3);

        trash.delete(TrashScope.series(STUDY, SERIES), "wrong", true, TestCallers.USER);
        assertThatThrownBy(() -> ready.series(STUDY, SERIES, URLS)).isInstanceOf(StoreException.class)
                .extracting(e -> ((StoreException) e).kind()).isEqualTo(StoreException.Kind.NOT_FOUND);
        assertThatThrownBy(() -> ready.study(STUDY, URLS)).isInstanceOf(StoreException.class);
    }

    @Test
    void aCorrectionIsServedAtOnce() throws IOException {
        servedAsBuilt();
        Corrector corrector = new Corrector(index, images, ingest, trash, StoreMetrics.NONE);

        corrector.correct(STUDY, Correction.of(Map.of("PatientName", "Corrected^Name"), "typo"), 100, n -> { },
                TestCallers.USER);

        ReadyMetadata[] corrected = servedAsBuilt();
        assertThat(json(corrected[0])).contains("Corrected^Name").doesNotContain("Ready^One");
        assertThat(json(corrected[1])).contains("Corrected^Name").doesNotContain("Ready^One");
    }

    @Test
    void whatIsKeptIsServedOnlyToCallersWhoSeeTheStudy() throws IOException {
        ready.series(STUDY, SERIES, URLS);
        ReadyMetadataService labelled = new ReadyMetadataService(new WadoService(new ArchiveSearch(index), index,
                images, "TEST", Visibility.labels(Set.of("p1"))), index, Visibility.labels(Set.of("p1")));

        assertThatThrownBy(() -> labelled.series(STUDY, SERIES, URLS)).isInstanceOf(StoreException.class)
                .extracting(e -> ((StoreException) e).kind()).isEqualTo(StoreException.Kind.NOT_FOUND);
        index.addLabel(STUDY, "p1");
        assertThat(labelled.series(STUDY, SERIES, URLS).instances()).isEqualTo(3);
        assertThatThrownBy(() -> ready.series("1.2.826.34.9", SERIES, URLS)).isInstanceOf(StoreException.class);
    }
}
