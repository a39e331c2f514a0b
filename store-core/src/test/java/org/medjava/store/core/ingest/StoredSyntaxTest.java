package org.medjava.store.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.core.storage.LocalFileStorage;
import org.medjava.store.core.testsupport.PixelData;
import org.medjava.store.core.testsupport.RecordingMetrics;
import org.medjava.store.core.testsupport.TestCallers;
import org.medjava.store.core.transcode.Transcoder;
import org.medjava.store.core.transcode.TransferSyntaxes;
import org.medjava.store.testkit.Samples;

/**
 * {@link StoredSyntax}: under {@code htj2k-lossless} a received uncompressed object is stored as HTJ2K Lossless RPCL
 * whose decoded samples are the received ones, bit for bit (16-bit grey, signed and unsigned, 8-bit grey, RGB, and
 * big-endian and deflated sources), and indexed in that syntax; a compressed object, and every object under the
 * default, is stored byte for byte as received.
 */
class StoredSyntaxTest {

    @TempDir
    Path dir;
    private DicomIndex index;
    private LocalFileStorage storage;
    private ImageRepository images;
    private final RecordingMetrics metrics = new RecordingMetrics();

    @BeforeEach
    void open() throws IOException {
        index = new DicomIndex(IndexDatabase.h2(dir.resolve("index")));
        storage = new LocalFileStorage(dir.resolve("images"));
        images = new ImageRepository(storage, 1 << 26);
    }

    @AfterEach
    void close() {
        index.close();
    }

    private Ingest ingest(StoredSyntax syntax) {
        return Ingest.builder(images, index, new UploadValidator(1 << 26), DuplicatePolicy.REPLACE)
                .metrics(metrics).storedSyntax(syntax).build();
    }

    /** {@code file} as the network layer leaves a received object: a copy in the staging directory. */
    private Path staged(Path file) throws IOException {
        return Files.copy(file, images.newStagingFile("test-"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** {@code sample} written in {@code to} (uncompressed syntaxes other than the sample's own). */
    private Path in(String sample, String to) throws Exception {
        Path source = Samples.dicom(sample);
        return Files.write(dir.resolve(sample + "-" + to + ".dcm"), Transcoder.part10(source,
                Part10File.read(source).transferSyntaxUid(), to, "TEST"));
    }

    @Test
    void uncompressedObjectsAreStoredAsHtj2kThatDecodesToTheReceivedSamples() throws Exception {
        Path[] received = {Samples.dicom("CT_small.dcm"), Samples.dicom("MR_small.dcm"),
            Samples.dicom("examples_rgb_color.dcm"), Samples.dicom("image_dfl.dcm"),
            in("CT_small.dcm", TransferSyntaxes.EXPLICIT_BE), in("MR_small.dcm", TransferSyntaxes.DEFLATED_LE)};
        Ingest ingest = ingest(StoredSyntax.HTJ2K_LOSSLESS);
        for (Path file : received) {
            String from = Part10File.read(file).transferSyntaxUid();
            assertThat(TransferSyntaxes.isNative(from)).as(file + " is uncompressed").isTrue();
            Ingested r = ingest.receive(staged(file), Expected.NOTHING, TestCallers.USER);
            Path stored = storage.root().resolve(r.path().relative());

            assertThat(Part10File.read(stored).transferSyntaxUid()).as(file.toString())
                    .isEqualTo(TransferSyntaxes.HTJ2K_RPCL_LOSSLESS);
            byte[] decoded = PixelData.of(decoded(stored, TransferSyntaxes.HTJ2K_RPCL_LOSSLESS));
            assertThat(decoded).as(file + " decoded").isEqualTo(PixelData.of(decoded(file, from)));
            assertThat(index.instance(r.path().relative())).get().extracting(InstanceSummary::transferSyntaxUid)
                    .isEqualTo(TransferSyntaxes.HTJ2K_RPCL_LOSSLESS);
        }
        assertThat(metrics.events()).filteredOn(e -> e.startsWith("recompressed"))
                .containsOnly("recompressed htj2k").hasSize(received.length);
        assertStagingEmpty();
    }

    @Test
    void compressedObjectsAndEveryObjectByDefaultAreStoredAsReceived() throws Exception {
        Path jpegLs = Samples.dicom("MR_small_jpeg_ls_lossless.dcm");
        Ingested compressed = ingest(StoredSyntax.HTJ2K_LOSSLESS).receive(staged(jpegLs), Expected.NOTHING,
                TestCallers.USER);
        assertThat(storage.root().resolve(compressed.path().relative())).hasSameBinaryContentAs(jpegLs);

        Path ct = Samples.dicom("CT_small.dcm");
        Ingested plain = ingest(StoredSyntax.RECEIVED).receive(staged(ct), Expected.NOTHING, TestCallers.USER);
        assertThat(storage.root().resolve(plain.path().relative())).hasSameBinaryContentAs(ct);
        assertThat(metrics.events()).noneMatch(e -> e.startsWith("recompressed"));
        assertStagingEmpty();
    }

    @Test
    void theSettingIsParsedByItsNames() {
        assertThat(StoredSyntax.parse(" HTJ2K-Lossless ")).isEqualTo(StoredSyntax.HTJ2K_LOSSLESS);
        assertThat(StoredSyntax.parse("received")).isEqualTo(StoredSyntax.RECEIVED);
        assertThat(StoredSyntax.HTJ2K_LOSSLESS.id()).isEqualTo("htj2k-lossless");
        assertThatThrownBy(() -> StoredSyntax.parse("htj2k")).hasMessageContaining("received or htj2k-lossless");
    }

    /** The file's pixels as an uncompressed Part 10 file, decoded by the store's transcoder. */
    private Path decoded(Path file, String from) throws Exception {
        return Files.write(dir.resolve("decoded-" + file.getFileName() + "-" + System.nanoTime() + ".dcm"),
                Transcoder.part10(file, from, TransferSyntaxes.EXPLICIT_LE, "TEST"));
    }

    private void assertStagingEmpty() throws IOException {
        try (Stream<Path> files = Files.list(storage.root().resolve(".staging"))) {
            assertThat(files.toList()).isEmpty();
        }
    }
}
