package org.medjava.store.server.pacs;

import static org.assertj.core.api.Assertions.assertThat;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.OtherByteAttributeMultipleCompressedFrames;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.dicom.PixelMedInput;
import org.medjava.store.core.ingest.Part10File;
import org.medjava.store.core.testsupport.PixelData;
import org.medjava.store.core.transcode.Transcoder;
import org.medjava.store.core.transcode.TransferSyntaxes;
import org.medjava.store.server.it.Scrape;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.http.Multipart;
import org.medjava.store.testkit.Ports;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.pacs.Dcmtk;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * {@code medjava.dicom.store-as=htj2k-lossless} on a running store: uncompressed objects sent by DCMTK's storescu are
 * kept as HTJ2K Lossless RPCL, whose codestream OpenJPEG's {@code opj_decompress} (a decoder independent of the
 * OpenJPH that wrote it) decodes to the sent samples; WADO-RS gives them back uncompressed to the very samples; a
 * JPEG-LS object is kept as sent, its pixel data byte for byte; the metrics count the
 * recompressed ones.
 */
class StoreAsHtj2kIT {

    private static final String HTJ2K = TransferSyntaxes.HTJ2K_RPCL_LOSSLESS;

    @TempDir
    static Path work;
    static PayaraStore store;
    static StoreClient admin;
    static TestStudy study;

    @BeforeAll
    static void start() throws Exception {
        int dicomPort = Ports.free();
        store = PayaraStore.named("store-as-htj2k")
                .dicom(dicomPort, "STORESCU")
                .property("medjava.dicom.store-as", "htj2k-lossless")
                .start();
        admin = StoreClient.admin(store);
        study = TestStudy.create(work.resolve("source"), "HTJ2K-AT-REST", "CT_small.dcm", "MR_small.dcm",
                "examples_rgb_color.dcm", "MR_small_jpeg_ls_lossless.dcm");
        Dcmtk.storeAll(dicomPort, study);
    }

    @AfterAll
    static void stop() throws Exception {
        if (store != null) {
            store.close();
        }
    }

    private static Path stored(TestStudy.Instance i) {
        return store.dataDir().resolve("images").resolve(study.storePath(i));
    }

    @Test
    void uncompressedObjectsAreKeptAsHtj2kThatAnotherDecoderReadsToTheSentSamples() throws Exception {
        for (String sample : List.of("CT_small.dcm", "MR_small.dcm")) { // 16-bit grey: one codestream, raw samples
            TestStudy.Instance i = study.instance(sample);
            assertThat(Part10File.read(stored(i)).transferSyntaxUid()).as(sample).isEqualTo(HTJ2K);
            Path j2c = Files.write(work.resolve(sample + ".j2c"), codestream(stored(i)));
            Path raw = work.resolve(sample + ".rawl");
            Command.run(List.of("opj_decompress", "-i", j2c.toString(), "-o", raw.toString())).assertOk();
            assertThat(Files.readAllBytes(raw)).as(sample).isEqualTo(samples(i.file()));
        }
        TestStudy.Instance rgb = study.instance("examples_rgb_color.dcm");
        assertThat(Part10File.read(stored(rgb)).transferSyntaxUid()).isEqualTo(HTJ2K);
    }

    @Test
    void wadoGivesTheSentSamplesBackUncompressed() throws Exception {
        for (String sample : List.of("CT_small.dcm", "MR_small.dcm", "examples_rgb_color.dcm")) {
            TestStudy.Instance i = study.instance(sample);
            HttpResponse<byte[]> r = admin.send(admin.request("/dicomweb/studies/" + study.studyUid() + "/series/"
                    + i.seriesUid() + "/instances/" + i.sopInstanceUid()).header("Accept",
                    "multipart/related; type=\"application/dicom\"; transfer-syntax=" + TransferSyntaxes.EXPLICIT_LE));
            assertThat(r.statusCode()).as(sample).isEqualTo(200);
            Path back = Files.write(work.resolve(sample + "-back.dcm"), Multipart.parse(r.body(),
                    r.headers().firstValue("Content-Type").orElseThrow()).get(0).body());
            assertThat(Part10File.read(back).transferSyntaxUid()).isEqualTo(TransferSyntaxes.EXPLICIT_LE);
            assertThat(samples(back)).as(sample).isEqualTo(samples(i.file()));
        }
    }

    @Test
    void compressedObjectsAreKeptAsSentAndBothAreCounted() throws Exception {
        TestStudy.Instance jpegLs = study.instance("MR_small_jpeg_ls_lossless.dcm");
        // C-STORE gives the store the data set, to which it adds its file meta information: the same pixel bytes
        assertThat(Part10File.read(stored(jpegLs)).transferSyntaxUid()).isEqualTo(TransferSyntaxes.JPEG_LS_LOSSLESS);
        assertThat(PixelData.of(stored(jpegLs))).isEqualTo(PixelData.of(jpegLs.file()));
        Scrape metrics = Scrape.of(admin);
        assertThat(metrics.value("medjava_recompressed_instances_total", "outcome", "htj2k")).isEqualTo(3);
    }

    /** The first frame's codestream of an encapsulated object. */
    private static byte[] codestream(Path file) throws Exception {
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        try (var in = PixelMedInput.open(Files.newInputStream(file))) {
            list.read(in);
        }
        return ((OtherByteAttributeMultipleCompressedFrames) list.getPixelData()).getByteValuesForSelectedFrame(0);
    }

    /** An object's samples as little-endian bytes, uncompressed by the store's transcoder where they are not. */
    private static byte[] samples(Path file) throws Exception {
        return PixelData.of(Files.write(Files.createTempFile(work, "ele", ".dcm"), Transcoder.part10(file,
                Part10File.read(file).transferSyntaxUid(), TransferSyntaxes.EXPLICIT_LE, "TEST")));
    }
}
