package org.medjava.store.server.pacs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.Ports;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.pacs.Dcmtk;
import org.medjava.store.testkit.peers.Pydicom;
import org.medjava.store.testkit.peers.Storescp;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * A C-MOVE destination that de-identifies, on a real store against DCMTK's storescp, checked by pydicom: the
 * received copies carry no name or ID of the source patient, say Patient Identity Removed and the method, have new
 * UIDs (the same on a second move) and the source's pixel data byte for byte; the instance whose Series Description
 * names the patient (which Clean Descriptors cannot clean) is not sent and fails its sub-operation (final status
 * Warning); a plain destination still gets the originals; the move is audited as a de-identified export.
 */
class MoveDeidentifyIT {

    private static final String AE = "MEDJAVA";
    private static final String PATIENT_NAME = "Mover^Patricia";
    private static final String PARTLY_FAILED = "Warning: SubOperationsCompleteOneOrMoreFailures";

    @TempDir
    static Path work;
    static PayaraStore store;
    static int dicomPort;
    static int deidPort;
    static int plainPort;
    static TestStudy study;

    @BeforeAll
    static void start() throws Exception {
        dicomPort = Ports.free();
        deidPort = Ports.free();
        plainPort = Ports.free();
        store = PayaraStore.named("move-deid")
                .dicom(dicomPort, "STORESCU, MOVESCU")
                .property("medjava.dicom.aet", AE)
                .property("medjava.dicom.move-destinations", "RESEARCH=127.0.0.1:" + deidPort
                        + " deidentify(clean-descriptors), PLAIN=127.0.0.1:" + plainPort)
                .start();
        study = TestStudy.create(work.resolve("source"), "MOVE-DEID-1", "CT_small.dcm", "MR_small.dcm",
                "MR_small_RLE.dcm");
        for (TestStudy.Instance i : study.instances()) {
            Command.run(Command.of("dcmodify", "-nb", "-m", "(0010,0010)=" + PATIENT_NAME, i.file())).assertOk();
        }
        Command.run(Command.of("dcmodify", "-nb", "-i", "(0008,103E)=follow-up of Mover",
                study.instance("MR_small_RLE.dcm").file())).assertOk();
        Dcmtk.storeAll(dicomPort, study);
    }

    @AfterAll
    static void stop() throws Exception {
        if (store != null) {
            store.close();
        }
    }

    private static Command.Result move(String destination) throws Exception {
        return Command.run(Command.of("movescu", "-v", "-S", "-aet", "MOVESCU", "-aec", AE, "-aem", destination,
                "127.0.0.1", dicomPort, "-k", "QueryRetrieveLevel=STUDY", "-k", "StudyInstanceUID="
                        + study.studyUid()));
    }

    /** Moves the study to {@code destination}, received by a storescp in {@code dir}; the files it got. */
    private static List<Path> moveTo(String destination, int port, String dir, String finalStatus) throws Exception {
        try (Storescp scp = Storescp.start(destination, port, work.resolve(dir))) {
            Command.Result r = move(destination);
            assertThat(r.output()).as(scp.log()).contains("Received Final Move Response (" + finalStatus + ")");
            return scp.received();
        }
    }

    private static Map<String, String> describe(String python, Path file) throws Exception {
        return Pydicom.describe(python, file, List.of("PatientName", "PatientID", "PatientIdentityRemoved",
                "DeidentificationMethod", "StudyInstanceUID", "SeriesInstanceUID", "SOPInstanceUID", "Modality",
                "SeriesDescription"));
    }

    @Test
    void aDeidentifyingDestinationGetsCleanCopiesWithStableUidsAndAPlainOneTheOriginals() throws Exception {
        List<Path> first = moveTo("RESEARCH", deidPort, "research-1", PARTLY_FAILED);
        List<Path> second = moveTo("RESEARCH", deidPort, "research-2", PARTLY_FAILED);
        List<Path> plain = moveTo("PLAIN", plainPort, "plain", "Success");
        assertThat(first).hasSize(2); // the MR whose description names the patient was not sent
        assertThat(second).hasSize(2);
        assertThat(plain).hasSize(3);
        assertThat(store.dataDir().resolve("deid.key")).exists();

        String python = Pydicom.python();
        assumeTrue(python != null, "python3 with pydicom not found (bootstrap/install-deps.sh --test installs it):"
                + " the independent check is skipped");
        Map<String, Map<String, String>> sources = new HashMap<>();
        Set<String> sourceUids = new HashSet<>(Set.of(study.studyUid()));
        for (TestStudy.Instance i : study.instances()) {
            Map<String, String> s = describe(python, i.file());
            sources.put(s.get("Modality") + " " + s.get("TransferSyntaxUID"), s);
            sourceUids.add(i.sopInstanceUid());
            sourceUids.add(i.seriesUid());
        }
        List<String> firstUids = new ArrayList<>();
        for (Path copy : first) {
            Map<String, String> d = describe(python, copy);
            Map<String, String> s = sources.get(d.get("Modality") + " " + d.get("TransferSyntaxUID"));
            assertThat(s).as("a source of the same modality and transfer syntax: " + d).isNotNull();
            assertThat(d.get("PatientName")).isNotEqualTo(PATIENT_NAME).doesNotContainIgnoringCase("mover");
            assertThat(d.get("PatientID")).isNotEqualTo(study.patientId()).isNotEmpty();
            assertThat(d.get("PatientIdentityRemoved")).isEqualTo("YES");
            assertThat(d.get("DeidentificationMethod")).isNotEmpty();
            assertThat(d.get("SeriesDescription")).doesNotContainIgnoringCase("mover");
            assertThat(d.get("StudyInstanceUID")).startsWith("2.25.");
            for (String uid : List.of("StudyInstanceUID", "SeriesInstanceUID", "SOPInstanceUID")) {
                assertThat(d.get(uid)).as(uid).isNotIn(sourceUids);
                firstUids.add(d.get(uid));
            }
            assertThat(d.get("PixelDataSHA256")).isEqualTo(s.get("PixelDataSHA256"));
        }
        List<String> secondUids = new ArrayList<>();
        for (Path copy : second) {
            Map<String, String> d = describe(python, copy);
            for (String uid : List.of("StudyInstanceUID", "SeriesInstanceUID", "SOPInstanceUID")) {
                secondUids.add(d.get(uid));
            }
        }
        assertThat(secondUids).containsExactlyInAnyOrderElementsOf(firstUids);

        Set<String> plainSops = new HashSet<>();
        for (Path original : plain) {
            Map<String, String> d = describe(python, original);
            assertThat(d.get("PatientName")).isEqualTo(PATIENT_NAME);
            assertThat(d.get("PatientID")).isEqualTo(study.patientId());
            assertThat(d.get("StudyInstanceUID")).isEqualTo(study.studyUid());
            plainSops.add(d.get("SOPInstanceUID"));
        }
        assertThat(plainSops).containsExactlyInAnyOrderElementsOf(study.instances().stream()
                .map(TestStudy.Instance::sopInstanceUid).toList());

        StoreClient admin = StoreClient.admin(store);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String events = "";
        while (!events.contains("de-identified") && System.nanoTime() < deadline) {
            events = admin.getJson("/audit/events?type=export&study=" + study.studyUid()).body();
            Thread.sleep(250);
        }
        assertThat(events).contains("de-identified", "RESEARCH", "Basic Profile with clean-descriptors");
    }
}
