package org.medjava.store.core.correct;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.TagFromName;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.json.Json;
import javax.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.AuditEvent;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.index.Change;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.PatientQuery;
import org.medjava.store.core.index.PatientSummary;
import org.medjava.store.core.index.StudyQuery;
import org.medjava.store.core.index.TestDicom;
import org.medjava.store.core.index.TrashScope;
import org.medjava.store.core.index.TrashedFile;
import org.medjava.store.core.ingest.DuplicatePolicy;
import org.medjava.store.core.ingest.Expected;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.jobs.CorrectJob;
import org.medjava.store.core.metrics.StoreMetrics;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.core.testsupport.DerivingStore;
import org.medjava.store.core.testsupport.TestCallers;
import org.medjava.store.core.trash.Trash;

/**
 * {@link Corrector} through its jobs ({@link CorrectJob}): a study of two CT instances received over the network
 * (archive layout) and one put at a path of its own, its Patient ID, name and accession number corrected: the files
 * carry the new values with the same UIDs and pixels, the index follows (the old patient gone), the previous versions
 * are in the trash and come back from it, the change feed says "updated", the audit trail has old and new values;
 * a merge of two patients; what is refused before the job is queued.
 */
class CorrectorTest {
    private static final String STUDY = "1.2.826.0.1.3680043.9.7301";
    private static final String CT = "1.2.826.0.1.3680043.9.7302";
    private static final String OTHER = "1.2.826.0.1.3680043.9.7311";

    @TempDir
    Path dir;
    private DerivingStore store;
    private Ingest ingest;
    private Trash trash;
    private final List<AuditEvent> audit = new CopyOnWriteArrayList<>();
    private final List<long[]> counted = new CopyOnWriteArrayList<>();
    private CorrectJob correct;
    private CorrectJob merge;

    @BeforeEach
    void open() throws Exception {
        store = DerivingStore.open(dir);
        StoreMetrics metrics = new StoreMetrics() {
            @Override
            public void corrected(String outcome, long instances) {
                counted.add(new long[] {outcome.equals("corrected") ? 1 : 0, instances});
            }
        };
        ingest = Ingest.builder(store.images(), store.index(), new UploadValidator(DerivingStore.LIMIT),
                DuplicatePolicy.REJECT).audit(audit::add).build();
        trash = new Trash(store.index(), store.images(), new Trash.Settings(Duration.ofHours(1), 1, 0), audit::add,
                StoreMetrics.NONE, Clock.systemUTC());
        Corrector corrector = new Corrector(store.index(), store.images(), ingest, trash, metrics);
        correct = new CorrectJob(false, store.index(), corrector, 10);
        merge = new CorrectJob(true, store.index(), corrector, 10);
        for (int n = 1; n <= 2; n++) {
            receive(TestDicom.ct().patient("WRONG-1", "Wrong^Name").study(STUDY, "20240101").set("AccessionNumber",
                    "A1").series(CT, "CT", 1).instance(CT + "." + n, n), "ct" + n);
        }
        store.put("own/ct3.dcm", TestDicom.ct().patient("WRONG-1", "Wrong^Name").study(STUDY, "20240101")
                .set("AccessionNumber", "A1").series(CT, "CT", 1).instance(CT + ".3", 3).writeTo(dir.resolve("3.dcm")));
    }

    @AfterEach
    void close() {
        store.close();
    }

    private void receive(TestDicom dicom, String name) throws Exception {
        Path staged = ingest.newStagingFile();
        Files.copy(dicom.writeTo(dir.resolve(name + ".dcm")), staged, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        ingest.receive(staged, Expected.NOTHING, TestCallers.USER);
    }

    private static Map<String, String> params(String... keyValues) {
        Map<String, String> p = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.put(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    private AttributeList read(String path) throws Exception {
        AttributeList list = new AttributeList();
        list.read(store.storage().localCopy(path).path().toString());
        return list;
    }

    private static String value(AttributeList list, com.pixelmed.dicom.AttributeTag tag) {
        return Attribute.getSingleStringValueOrEmptyString(list, tag);
    }

    private List<InstanceSummary> instances() {
        return store.index().instances(CT);
    }

    @Test
    void correctsEveryInstanceKeepingUidsAndPixelsAndKeepsThePreviousVersionsInTheTrash() throws Exception {
        Map<String, short[]> pixels = new HashMap<>();
        for (InstanceSummary i : instances()) {
            pixels.put(i.sopInstanceUid(), read(i.path()).get(TagFromName.PixelData).getShortValues());
        }
        long since = store.index().lastChange();
        JsonObject result;
        Map<String, String> p = params("StudyInstanceUID", STUDY, "PatientID", "RIGHT-1", "PatientName",
                "Right^Name", "AccessionNumber", "A2", "reason", "wrong patient at registration");
        correct.validate(p);
        result = Json.createReader(new StringReader(correct.run(p, (d, t) -> { }, Caller.account("ulf", null))))
                .readObject();

        assertThat(result.getInt("corrected")).isEqualTo(3);
        JsonObject studyResult = result.getJsonArray("studies").getJsonObject(0);
        assertThat(studyResult.getJsonObject("old").getString("PatientID")).isEqualTo("WRONG-1");
        String trashId = studyResult.getString("trashId");

        List<InstanceSummary> now = instances();
        assertThat(now).hasSize(3).extracting(InstanceSummary::path).containsExactlyInAnyOrder(
                "dicom/RIGHT-1/" + STUDY + "/" + CT + "/" + CT + ".1.dcm",
                "dicom/RIGHT-1/" + STUDY + "/" + CT + "/" + CT + ".2.dcm", "own/ct3.dcm");
        for (InstanceSummary i : now) {
            AttributeList list = read(i.path());
            assertThat(value(list, TagFromName.PatientID)).isEqualTo("RIGHT-1");
            assertThat(value(list, TagFromName.PatientName)).isEqualTo("Right^Name");
            assertThat(value(list, TagFromName.AccessionNumber)).isEqualTo("A2");
            assertThat(value(list, TagFromName.StudyInstanceUID)).isEqualTo(STUDY);
            assertThat(value(list, TagFromName.SeriesInstanceUID)).isEqualTo(CT);
            assertThat(value(list, TagFromName.SOPInstanceUID)).isEqualTo(i.sopInstanceUid());
            assertThat(list.get(TagFromName.PixelData).getShortValues()).isEqualTo(pixels.get(i.sopInstanceUid()));
        }
        assertThat(store.index().patients(PatientQuery.all())).extracting(PatientSummary::patientId)
                .containsExactly("RIGHT-1");
        assertThat(store.index().studies(StudyQuery.all()).get(0).accessionNumber()).isEqualTo("A2");

        List<TrashedFile> kept = trash.files(trashId);
        assertThat(kept).hasSize(3).allMatch(f -> f.level().equals(TrashedFile.VERSION));
        assertThat(kept).extracting(TrashedFile::path).contains("corrected/" + trashId + "/" + CT + ".3.dcm",
                "dicom/WRONG-1/" + STUDY + "/" + CT + "/" + CT + ".1.dcm");
        assertThat(store.images().stat(StorePath.parse("dicom/WRONG-1/" + STUDY + "/" + CT + "/" + CT + ".1.dcm")))
                .as("the previous version is hidden from reads").isEmpty();
        assertThat(store.index().changes(since, 100)).filteredOn(c -> c.kind().equals(Change.UPDATED))
                .extracting(Change::sopInstanceUid).containsExactlyInAnyOrder(CT + ".1", CT + ".2", CT + ".3");

        AuditEvent event = audit.stream().filter(e -> e.id().code().equals("110110")).findFirst().orElseThrow();
        assertThat(event.action()).isEqualTo('U');
        assertThat(event.objects()).extracting(AuditEvent.ParticipantObject::id).contains("WRONG-1", "RIGHT-1", STUDY);
        assertThat(event.objects().stream().filter(o -> STUDY.equals(o.id())).findFirst().orElseThrow().description())
                .contains("PatientID: \"WRONG-1\" -> \"RIGHT-1\"", "PatientName: \"Wrong^Name\" -> \"Right^Name\"",
                        "AccessionNumber: \"A1\" -> \"A2\"", "wrong patient at registration", trashId);
        assertThat(counted).anyMatch(c -> c[0] == 1 && c[1] == 3);

        // restored, the previous versions are the instances again; the corrected ones go to the trash in turn
        Trash.Outcome restored = trash.restore(trashId, TestCallers.USER);
        assertThat(restored.restored()).isEqualTo(3);
        assertThat(instances()).extracting(InstanceSummary::path).containsExactlyInAnyOrder(
                "dicom/WRONG-1/" + STUDY + "/" + CT + "/" + CT + ".1.dcm",
                "dicom/WRONG-1/" + STUDY + "/" + CT + "/" + CT + ".2.dcm", "corrected/" + trashId + "/" + CT + ".3.dcm");
        for (InstanceSummary i : instances()) {
            assertThat(value(read(i.path()), TagFromName.PatientID)).isEqualTo("WRONG-1");
        }
        assertThat(store.index().patients(PatientQuery.all())).extracting(PatientSummary::patientId)
                .containsExactly("WRONG-1");
        assertThat(trash.list()).hasSize(1); // the corrected versions, restorable in turn
    }

    @Test
    void mergesEveryStudyOfOnePatientIntoAnotherWithItsDemographics() throws Exception {
        receive(TestDicom.ct().patient("KEEP-9", "Kept^Patient").set("PatientSex", "F").study(OTHER, "20230101")
                .series(OTHER + ".1", "CT", 1).instance(OTHER + ".1.1", 1), "other");
        Map<String, String> p = params("sourcePatientID", "WRONG-1", "PatientID", "KEEP-9", "reason", "duplicate");
        merge.validate(p);
        merge.run(p, (d, t) -> { }, TestCallers.USER);

        assertThat(store.index().patients(PatientQuery.all())).singleElement().satisfies(patient -> {
            assertThat(patient.patientId()).isEqualTo("KEEP-9");
            assertThat(patient.patientName()).isEqualTo("Kept^Patient");
            assertThat(patient.numberOfPatientRelatedStudies()).isEqualTo(2);
        });
        for (InstanceSummary i : instances()) {
            assertThat(value(read(i.path()), TagFromName.PatientSex)).isEqualTo("F");
        }
    }

    @Test
    void refusesWhatItCannotDoBeforeTheJobIsQueued() {
        assertThatThrownBy(() -> correct.validate(params("StudyInstanceUID", STUDY, "SOPInstanceUID", "1.2")))
                .isInstanceOfSatisfying(StoreException.class, e -> {
                    assertThat(e.kind()).isEqualTo(StoreException.Kind.BAD_REQUEST);
                    assertThat(e.getMessage()).contains("keeps every UID");
                });
        assertThatThrownBy(() -> correct.validate(params("StudyInstanceUID", STUDY, "Modality", "MR")))
                .hasMessageContaining("cannot be corrected");
        assertThatThrownBy(() -> correct.validate(params("StudyInstanceUID", STUDY, "PatientName", "")))
                .hasMessageContaining("PatientName must be 1 to 64");
        assertThatThrownBy(() -> correct.validate(params("StudyInstanceUID", STUDY, "StudyDate", "20241341")))
                .hasMessageContaining("YYYYMMDD");
        assertThatThrownBy(() -> correct.validate(params("StudyInstanceUID", STUDY)))
                .hasMessageContaining("at least one new value");
        assertThatThrownBy(() -> correct.validate(params("StudyInstanceUID", "1.2.3", "PatientID", "X")))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.NOT_FOUND));
        trash.delete(TrashScope.study(STUDY), null, true, TestCallers.USER);
        assertThatThrownBy(() -> correct.validate(params("StudyInstanceUID", STUDY, "PatientID", "X")))
                .isInstanceOfSatisfying(StoreException.class, e -> {
                    assertThat(e.kind()).isEqualTo(StoreException.Kind.CONFLICT);
                    assertThat(e.getMessage()).contains("in the trash");
                });
        assertThatThrownBy(() -> merge.validate(params("sourcePatientID", "NOBODY", "PatientID", "X")))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.NOT_FOUND));
    }
}
