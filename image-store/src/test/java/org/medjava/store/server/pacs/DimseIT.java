package org.medjava.store.server.pacs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.pixelmed.network.Association;
import com.pixelmed.network.AssociationFactory;
import com.pixelmed.dicom.SetOfDicomFiles;
import com.pixelmed.network.CStoreRequestCommandMessage;
import com.pixelmed.network.MultipleInstanceTransferStatusHandler;
import com.pixelmed.network.PresentationContext;
import com.pixelmed.network.StorageSOPClassSCU;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.ingest.Part10File;
import org.medjava.store.core.testsupport.DecodedPixels;
import org.medjava.store.core.testsupport.PixelData;
import org.medjava.store.core.transcode.TransferSyntaxes;
import org.medjava.store.core.transcode.Transcoder;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.pacs.Dcmtk;
import org.medjava.store.testkit.pacs.PacsStore;
import org.medjava.store.testkit.peers.Storescp;
import org.medjava.store.testkit.store.StoreClient;

/**
 * The store's DICOM service against DCMTK: association control, C-ECHO, C-STORE in every transfer syntax the
 * samples have, refusals that store nothing, C-FIND at every level, C-GET and C-MOVE delivering byte-identical
 * data sets.
 */
@ExtendWith(PacsStore.class)
class DimseIT {

    @TempDir
    static Path work;
    static StoreClient admin;
    /** One study in ten transfer syntaxes, stored once for the tests that read it. */
    static TestStudy everySyntax;

    @BeforeAll
    static void storeTheSamples() throws Exception {
        admin = StoreClient.admin(PacsStore.store());
        everySyntax = TestStudy.create(work.resolve("every-syntax"), "DIMSE-TS", "CT_small.dcm",
                "MR_small_implicit.dcm", "MR_small_bigendian.dcm", "image_dfl.dcm", "MR_small_RLE.dcm",
                "SC_rgb_jpeg_dcmtk.dcm", "JPEG-lossy.dcm", "MR_small_jp2klossless.dcm", "JPEG2000.dcm",
                "MR_small_jpeg_ls_lossless.dcm");
        Dcmtk.storeAll(everySyntax);
    }

    private static Path stored(TestStudy study, TestStudy.Instance i) {
        return PacsStore.store().dataDir().resolve("images").resolve(study.storePath(i));
    }

    private static byte[] dataSet(Path file) throws Exception {
        byte[] all = Files.readAllBytes(file);
        int from = (int) Part10File.read(file).dataSetOffset();
        return java.util.Arrays.copyOfRange(all, from, all.length);
    }

    @Test
    void echoAnswersAllowedCallers() throws Exception {
        Dcmtk.echo("ECHOSCU", PacsStore.AE).assertOk();
    }

    @Test
    void strangersAreRejectedWithTheReason() throws Exception {
        Command.Result unknown = Dcmtk.echo("STRANGER", PacsStore.AE);
        assertThat(unknown.exitCode()).isNotZero();
        assertThat(unknown.output()).contains("Rejected Permanent", "Calling AE Title Not Recognized");

        Command.Result wrongHost = Dcmtk.echo(PacsStore.HOST_LOCKED_AE, PacsStore.AE);
        assertThat(wrongHost.exitCode()).isNotZero();
        assertThat(wrongHost.output()).contains("Calling AE Title Not Recognized");

        Command.Result wrongCalled = Dcmtk.echo("ECHOSCU", "NOT-THE-STORE");
        assertThat(wrongCalled.exitCode()).isNotZero();
        assertThat(wrongCalled.output()).contains("Called AE Title Not Recognized");
    }

    @Test
    void storesEveryTransferSyntaxWithItsPixelDataIntact() throws Exception {
        for (TestStudy.Instance i : everySyntax.instances()) {
            Path file = stored(everySyntax, i);
            assertThat(file).as(i.sample()).exists();
            assertThat(PixelData.of(file)).as(i.sample()).isEqualTo(PixelData.of(i.file()));
            if (!i.storescuOptions().isEmpty()) { // compressed: sent and kept as it was
                assertThat(Part10File.read(file).transferSyntaxUid()).as(i.sample()).isEqualTo(i.transferSyntaxUid());
            }
        }
        String studies = admin.getJson("/index/studies?StudyInstanceUID=" + everySyntax.studyUid()).body();
        assertThat(studies).contains("\"NumberOfStudyRelatedInstances\":" + everySyntax.instances().size());
    }

    @Test
    void malformedDataSetFailsWithAReasonAndTheAssociationGoesOn() throws Exception {
        TestStudy study = TestStudy.create(work.resolve("malformed"), "DIMSE-BAD", "SC_rgb_jpeg_dcmtk.dcm",
                "CT_small.dcm");
        TestStudy.Instance jpeg = study.instance("SC_rgb_jpeg_dcmtk.dcm");
        byte[] bytes = Files.readAllBytes(jpeg.file());
        java.util.Arrays.fill(bytes, bytes.length - 1500, bytes.length - 200, (byte) 0); // inside the JPEG data
        Files.write(jpeg.file(), bytes);

        Command.Result r = Dcmtk.store(List.of("-xy", "-R"), jpeg.file(), study.instance("CT_small.dcm").file());

        assertThat(r.output()).contains("Received Store Response (Error: CannotUnderstand)",
                "Received Store Response (Success)");
        assertThat(stored(study, jpeg)).doesNotExist();
        assertThat(stored(study, study.instance("CT_small.dcm"))).exists();
        assertStagingEmpty();
    }

    @Test
    void interruptedTransferLeavesNothingVisible() throws Exception {
        TestStudy study = TestStudy.create(work.resolve("interrupted"), "DIMSE-INT", "CT_small.dcm");
        TestStudy.Instance ct = study.instances().get(0);
        Part10File file = Part10File.read(ct.file());
        LinkedList<PresentationContext> contexts = new LinkedList<>();
        contexts.add(new PresentationContext((byte) 1, file.sopClassUid(), file.transferSyntaxUid()));
        Association association = AssociationFactory.createNewAssociation("127.0.0.1", PacsStore.dicomPort(),
                PacsStore.AE, "STORESCU", contexts, null, false);
        association.send((byte) 1, new CStoreRequestCommandMessage(file.sopClassUid(), file.sopInstanceUid())
                .getBytes(), null);
        byte[] data;
        try (var in = file.openDataSet()) {
            data = in.readAllBytes();
        }
        long endedBefore = abortedAssociations();
        OutputStream out = association.getAssociationOutputStream((byte) 1);
        out.write(data, 0, data.length / 2);
        out.flush(); // half of the data set is on its way...
        association.abort(); // ...and the sender goes away

        long deadline = System.nanoTime() + 10_000_000_000L;
        while (abortedAssociations() == endedBefore && System.nanoTime() < deadline) {
            Thread.sleep(100); // until the store has seen the abort
        }
        assertThat(abortedAssociations()).isGreaterThan(endedBefore);
        assertStagingEmpty();
        assertThat(stored(study, ct)).doesNotExist();
        assertThat(admin.getJson("/index/studies?StudyInstanceUID=" + study.studyUid()).body()).isEqualTo("[]");
        Dcmtk.echo("ECHOSCU", PacsStore.AE).assertOk();
    }

    /**
     * HTJ2K over DIMSE (issue 34): an object in HTJ2K Lossless RPCL is taken by C-STORE (it was refused in
     * negotiation before) and kept as sent; a C-MOVE to a destination that takes only uncompressed data gets it
     * decoded to the very samples. DCMTK 3.6.7 knows no HTJ2K syntax, so PixelMed's SCU sends it; the object is the
     * store's own encoding of CT_small, whose HTJ2K is checked against OpenJPH's and OpenJPEG's tools in image-codec.
     */
    @Test
    void htj2kIsTakenByCStoreKeptAsSentAndMovedDecodedToAPeerThatTakesOnlyUncompressedData() throws Exception {
        TestStudy study = TestStudy.create(work.resolve("htj2k"), "DIMSE-HT", "CT_small.dcm");
        TestStudy.Instance ct = study.instances().get(0);
        String htj2k = TransferSyntaxes.HTJ2K_RPCL_LOSSLESS;
        Path file = Files.write(work.resolve("ct-htj2k.dcm"), Transcoder.part10(ct.file(),
                Part10File.read(ct.file()).transferSyntaxUid(), htj2k, "TEST"));
        int[] completedFailed = new int[2];
        SetOfDicomFiles files = new SetOfDicomFiles();
        files.add(file.toFile());
        new StorageSOPClassSCU("127.0.0.1", PacsStore.dicomPort(), PacsStore.AE, "STORESCU", files, 0,
                new MultipleInstanceTransferStatusHandler() {
                    @Override
                    public void updateStatus(int remaining, int completed, int failed, int warning, String uid) {
                        completedFailed[0] = completed;
                        completedFailed[1] = failed;
                    }
                });
        assertThat(completedFailed).containsExactly(1, 0);
        assertThat(Part10File.read(stored(study, ct)).transferSyntaxUid()).isEqualTo(htj2k);
        assertThat(dataSet(stored(study, ct))).isEqualTo(dataSet(file));

        try (Storescp destination = Storescp.start(PacsStore.DESTINATION_AE, PacsStore.moveDestinationPort(),
                work.resolve("move-htj2k"), "+xe")) {
            Command.Result r = Dcmtk.move(PacsStore.DESTINATION_AE, "QueryRetrieveLevel=STUDY",
                    "StudyInstanceUID=" + study.studyUid());
            assertThat(r.output()).as(destination.log()).contains("Received Final Move Response (Success)");
            Path got;
            try (var received = Files.list(destination.dir())) {
                got = received.findFirst().orElseThrow();
            }
            assertThat(Part10File.read(got).transferSyntaxUid()).isEqualTo(TransferSyntaxes.EXPLICIT_LE);
            assertThat(PixelData.of(got)).isEqualTo(PixelData.of(ct.file()));
        }
    }

    @Test
    void duplicateSopInstanceIsRefusedAndTheStoredOneStays() throws Exception {
        TestStudy study = TestStudy.create(work.resolve("duplicate"), "DIMSE-DUP", "MR_small.dcm");
        TestStudy.Instance mr = study.instances().get(0);
        Dcmtk.storeAll(study);
        Path file = stored(study, mr);
        byte[] before = Files.readAllBytes(file);
        long modified = Files.getLastModifiedTime(file).toMillis();

        Command.Result again = Dcmtk.store(List.of(), mr.file());

        assertThat(again.output()).contains("Received Store Response").doesNotContain("(Success)");
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        assertThat(Files.getLastModifiedTime(file).toMillis()).isEqualTo(modified);
    }

    @Test
    void aSopClassThatIsNotStorageIsRefusedInNegotiation() throws Exception {
        String notStorage = "1.2.826.0.1.3680043.10.1385.99"; // every storage SOP class is offered (SopClassesIT)
        LinkedList<PresentationContext> contexts = new LinkedList<>();
        contexts.add(new PresentationContext((byte) 1, "1.2.840.10008.1.1", "1.2.840.10008.1.2.1")); // Verification
        contexts.add(new PresentationContext((byte) 3, notStorage, "1.2.840.10008.1.2.1"));
        Association association = AssociationFactory.createNewAssociation("127.0.0.1", PacsStore.dicomPort(),
                PacsStore.AE, "STORESCU", contexts, null, false);
        try {
            assertThat(association.getSuitablePresentationContextID("1.2.840.10008.1.1")).isEqualTo((byte) 1);
            assertThatThrownBy(() -> association.getSuitablePresentationContextID(notStorage))
                    .isInstanceOf(com.pixelmed.network.DicomNetworkException.class);
        } finally {
            association.release();
        }
    }

    @Test
    void unsupportedTransferSyntaxIsRefusedInNegotiation() throws Exception {
        String ct = "1.2.840.10008.5.1.4.1.1.2";
        LinkedList<PresentationContext> contexts = new LinkedList<>();
        contexts.add(new PresentationContext((byte) 1, "1.2.840.10008.1.1", "1.2.840.10008.1.2.1")); // Verification
        contexts.add(new PresentationContext((byte) 3, ct, "1.2.840.10008.1.2.4.100")); // MPEG2: not kept here
        Association association = AssociationFactory.createNewAssociation("127.0.0.1", PacsStore.dicomPort(),
                PacsStore.AE, "STORESCU", contexts, null, false);
        try {
            assertThat(association.getSuitablePresentationContextID("1.2.840.10008.1.1")).isEqualTo((byte) 1);
            assertThatThrownBy(() -> association.getSuitablePresentationContextID(ct))
                    .isInstanceOf(com.pixelmed.network.DicomNetworkException.class);
        } finally {
            association.release();
        }
    }

    @Test
    void findsAtEveryLevel() throws Exception {
        String study = everySyntax.studyUid();
        Command.Result studies = Dcmtk.find("-S", "QueryRetrieveLevel=STUDY", "PatientID=DIMSE-T?",
                "StudyInstanceUID", "NumberOfStudyRelatedInstances", "PatientName");
        assertThat(Dcmtk.matches(studies)).isEqualTo(1);
        assertThat(studies.output()).contains(study, "NumberOfStudyRelatedInstances", "[10");

        Command.Result patients = Dcmtk.find("-P", "QueryRetrieveLevel=PATIENT", "PatientID=DIMSE-TS",
                "NumberOfPatientRelatedInstances");
        assertThat(Dcmtk.matches(patients)).isEqualTo(1);

        Command.Result series = Dcmtk.find("-S", "QueryRetrieveLevel=SERIES", "StudyInstanceUID=" + study,
                "SeriesInstanceUID", "Modality");
        assertThat(Dcmtk.matches(series)).isEqualTo(10);

        TestStudy.Instance ct = everySyntax.instance("CT_small.dcm");
        Command.Result images = Dcmtk.find("-S", "QueryRetrieveLevel=IMAGE", "StudyInstanceUID=" + study,
                "SeriesInstanceUID=" + ct.seriesUid(), "SOPInstanceUID", "Rows", "SliceThickness");
        assertThat(Dcmtk.matches(images)).isEqualTo(1);
        assertThat(images.output()).contains(ct.sopInstanceUid());
        assertThat(images.output().lines().filter(l -> l.contains("SliceThickness"))) // from the stored header
                .anyMatch(l -> l.contains("[5"));

        Command.Result byDateAndList = Dcmtk.find("-S", "QueryRetrieveLevel=STUDY", "StudyDate=20040101-20041231",
                "StudyInstanceUID=1.2.3\\" + study);
        assertThat(Dcmtk.matches(byDateAndList)).isEqualTo(1);
    }

    @Test
    void badQueriesGetAFailureStatus() throws Exception {
        Command.Result badDate = Dcmtk.find("-S", "QueryRetrieveLevel=STUDY", "StudyDate=2004XX01");
        assertThat(badDate.output()).contains("Final Find Response (Failed: UnableToProcess)");
        Command.Result noLevel = Dcmtk.find("-S", "QueryRetrieveLevel=NOWHERE", "PatientID");
        assertThat(noLevel.output()).contains("Final Find Response (Error: DataSetDoesNotMatchSOPClass)"); // A900
        Command.Result patientInStudyRoot = Dcmtk.find("-S", "QueryRetrieveLevel=PATIENT", "PatientID");
        assertThat(patientInStudyRoot.output()).contains("Final Find Response (Error: DataSetDoesNotMatchSOPClass)");
    }

    @Test
    void getReturnsTheStoredDataSetsByteForByte() throws Exception {
        TestStudy study = TestStudy.create(work.resolve("get"), "DIMSE-GET", "CT_small.dcm", "MR_small.dcm");
        Dcmtk.storeAll(study);
        Path into = Files.createDirectories(work.resolve("get-received"));

        Command.Result r = Dcmtk.get(into, "QueryRetrieveLevel=STUDY", "StudyInstanceUID=" + study.studyUid());

        assertThat(r.output()).contains("Number of Completed Suboperations : 2", "Number of Failed Suboperations    : 0");
        assertReceivedAsStored(study, study.instances(), into);
    }

    @Test
    void moveSendsTheStoredDataSetsByteForByteInTheirOwnSyntax() throws Exception {
        try (Storescp destination = Storescp.start(PacsStore.DESTINATION_AE, PacsStore.moveDestinationPort(),
                work.resolve("move-received"))) {
            Command.Result r = Dcmtk.move(PacsStore.DESTINATION_AE, "QueryRetrieveLevel=STUDY",
                    "StudyInstanceUID=" + everySyntax.studyUid());
            assertThat(r.output()).as(destination.log()).contains("Received Final Move Response (Success)");
            assertReceivedAsStored(everySyntax, everySyntax.instances(), destination.dir());

            TestStudy.Instance one = everySyntax.instance("MR_small_jpeg_ls_lossless.dcm");
            Command.Result image = Dcmtk.move(PacsStore.DESTINATION_AE, "QueryRetrieveLevel=IMAGE",
                    "StudyInstanceUID=" + everySyntax.studyUid(), "SeriesInstanceUID=" + one.seriesUid(),
                    "SOPInstanceUID=" + one.sopInstanceUid());
            assertThat(image.output()).contains("Received Final Move Response (Success)");
        }
        Command.Result unknown = Dcmtk.move("NOWHERE", "QueryRetrieveLevel=STUDY",
                "StudyInstanceUID=" + everySyntax.studyUid());
        assertThat(unknown.output()).contains("MoveDestinationUnknown");
    }

    @Test
    void getToAPeerTakingOnlyUncompressedDataDecompressesEverySyntax() throws Exception {
        Path into = Files.createDirectories(work.resolve("get-uncompressed"));

        // getscu proposes the storage SOP classes in uncompressed syntaxes only, explicit VR little endian first
        Command.Result r = Dcmtk.get(into, "QueryRetrieveLevel=STUDY", "StudyInstanceUID=" + everySyntax.studyUid());

        assertThat(r.output()).contains("Number of Completed Suboperations : 10",
                "Number of Failed Suboperations    : 0");
        assertDecompressed(everySyntax, into, TransferSyntaxes.EXPLICIT_LE);
    }

    @Test
    void moveToADestinationTakingOnlyImplicitLittleEndianConvertsToIt() throws Exception {
        try (Storescp destination = Storescp.start(PacsStore.DESTINATION_AE, PacsStore.moveDestinationPort(),
                work.resolve("move-implicit"), "+xi")) {
            Command.Result r = Dcmtk.move(PacsStore.DESTINATION_AE, "QueryRetrieveLevel=STUDY",
                    "StudyInstanceUID=" + everySyntax.studyUid());

            assertThat(r.output()).as(destination.log()).contains("Received Final Move Response (Success)");
            assertDecompressed(everySyntax, destination.dir(), TransferSyntaxes.IMPLICIT_LE);
        }
    }

    @Test
    void getByAPeerPreferringJpegLosslessSendsEverySyntaxInIt() throws Exception {
        Path into = Files.createDirectories(work.resolve("get-jpeg-lossless"));

        // +xs: getscu proposes JPEG Lossless SV1 first, then the uncompressed syntaxes; the store takes SV1
        Command.Result r = Dcmtk.get(List.of("+xs"), into, "QueryRetrieveLevel=STUDY",
                "StudyInstanceUID=" + everySyntax.studyUid());

        assertThat(r.output()).contains("Number of Completed Suboperations : 10",
                "Number of Failed Suboperations    : 0");
        assertTranscoded(everySyntax, into, TransferSyntaxes.JPEG_LOSSLESS_SV1, "dcmdjpeg");
    }

    @Test
    void moveToADestinationTakingOnlyRleEncodesItHere() throws Exception {
        java.util.Set<String> classes = new java.util.HashSet<>();
        everySyntax.instances().forEach(i -> classes.add(i.sopClassUid()));
        try (Storescp destination = Storescp.acceptingOnly(PacsStore.DESTINATION_AE, PacsStore.moveDestinationPort(),
                work.resolve("move-rle"), TransferSyntaxes.RLE, classes)) {
            Command.Result r = Dcmtk.move(PacsStore.DESTINATION_AE, "QueryRetrieveLevel=STUDY",
                    "StudyInstanceUID=" + everySyntax.studyUid());

            assertThat(r.output()).as(destination.log()).contains("Received Final Move Response (Success)");
            assertTranscoded(everySyntax, destination.dir(), TransferSyntaxes.RLE, "dcmdrle");
        }
    }

    /**
     * Every instance arrived encoded in {@code syntax}; DCMTK's {@code decoder}
     * decodes each to the stored object's pixels: exactly its native samples when it was stored uncompressed or
     * lossless, the same decoded image otherwise (lossy sources stay marked lossy).
     */
    private static void assertTranscoded(TestStudy study, Path dir, String syntax, String decoder) throws Exception {
        List<Path> received;
        try (var files = Files.list(dir)) {
            received = files.toList();
        }
        assertThat(received).hasSize(study.instances().size());
        Path decoded = Files.createDirectories(work.resolve("decoded-" + syntax));
        for (TestStudy.Instance i : study.instances()) {
            Path got = received.stream().filter(p -> p.getFileName().toString().endsWith(i.sopInstanceUid()))
                    .findFirst().orElse(null);
            assertThat(got).as(i.sample() + " in " + received).isNotNull();
            Path stored = stored(study, i);
            assertThat(Part10File.read(got).transferSyntaxUid()).as(i.sample()).isEqualTo(syntax);
            Path plain = decoded.resolve(i.sopInstanceUid() + ".dcm");
            Command.run(Command.of(decoder, got, plain)).assertOk();
            assertThat(DecodedPixels.of(plain)).as(i.sample()).isEqualTo(DecodedPixels.of(stored));
            if (TransferSyntaxes.isNative(i.transferSyntaxUid())) {
                assertThat(PixelData.of(plain)).as(i.sample()).isEqualTo(PixelData.of(stored));
            }
            if (TransferSyntaxes.isLossy(i.transferSyntaxUid())) {
                assertThat(Command.run(Command.of("dcmdump", "-q", "+P", "0028,2110", got)).output())
                        .as(i.sample()).contains("[01]");
            }
        }
    }

    /**
     * Every instance arrived in {@code syntax}, uncompressed, decoding to the same pixels
     * as the stored object; the lossless ones hold exactly what DCMTK's decompression of the stored object holds.
     */
    private static void assertDecompressed(TestStudy study, Path dir, String syntax) throws Exception {
        try (var files = Files.list(dir)) {
            List<Path> received = files.toList();
            assertThat(received).hasSize(study.instances().size());
            for (TestStudy.Instance i : study.instances()) {
                Path got = received.stream().filter(p -> p.getFileName().toString().endsWith(i.sopInstanceUid()))
                        .findFirst().orElse(null);
                assertThat(got).as(i.sample() + " in " + received).isNotNull();
                Path stored = stored(study, i);
                assertThat(Part10File.read(got).transferSyntaxUid()).as(i.sample()).isEqualTo(syntax);
                assertThat(DecodedPixels.of(got)).as(i.sample()).isEqualTo(DecodedPixels.of(stored));
                if (TransferSyntaxes.isNative(i.transferSyntaxUid())) {
                    assertThat(PixelData.of(got)).as(i.sample()).isEqualTo(PixelData.of(stored));
                }
                String reference = switch (i.sample()) {
                    case "MR_small_RLE.dcm" -> "dcmdrle";
                    case "MR_small_jpeg_ls_lossless.dcm" -> "dcmdjpls";
                    case "JPEG-lossy.dcm" -> "dcmdjpeg"; // lossy, but image-codec's 12-bit decoder matches IJG's
                    case "MR_small_jp2klossless.dcm" -> "original"; // no JPEG 2000 decoder in Debian's DCMTK
                    default -> null;
                };
                if (reference != null) {
                    Path expected = reference.equals("original") ? Samples.dicom("MR_small.dcm")
                            : Files.createDirectories(work.resolve("dcmtk")).resolve(i.sopInstanceUid() + ".dcm");
                    if (!reference.equals("original")) {
                        Command.run(Command.of(reference, stored, expected)).assertOk();
                    }
                    assertThat(PixelData.of(got)).as(i.sample()).isEqualTo(PixelData.of(expected));
                }
            }
        }
    }

    private static void assertReceivedAsStored(TestStudy study, List<TestStudy.Instance> expected, Path dir)
            throws Exception {
        try (var files = Files.list(dir)) {
            List<Path> received = files.toList();
            for (TestStudy.Instance i : expected) {
                Path got = received.stream().filter(p -> p.getFileName().toString().endsWith(i.sopInstanceUid()))
                        .findFirst().orElseThrow(() -> new AssertionError(i.sample() + " did not arrive in " + dir
                                + ": " + received));
                assertThat(dataSet(got)).as(i.sample()).isEqualTo(dataSet(stored(study, i)));
                assertThat(PixelData.of(got)).as(i.sample()).isEqualTo(PixelData.of(stored(study, i)));
            }
        }
    }

    /** How many associations the store's log reports as aborted. */
    private static long abortedAssociations() throws Exception {
        return PacsStore.store().log().lines().filter(l -> l.contains("ended after") && l.contains("A-ABORT"))
                .count();
    }

    private static void assertStagingEmpty() throws Exception {
        Path staging = PacsStore.store().dataDir().resolve("images/.staging");
        try (var files = Files.list(staging)) {
            assertThat(files.toList()).isEmpty();
        }
    }
}
