package org.medjava.store.core.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.TagFromName;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
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
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.SeriesSummary;
import org.medjava.store.core.index.TestDicom;
import org.medjava.store.core.ingest.DuplicatePolicy;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.core.testsupport.DerivingStore;
import org.medjava.store.core.testsupport.TestCallers;

/**
 * {@link DeidentifyJob}: a study of a CT series (two instances) and an MR series copied as a new de-identified study
 * (new UIDs shared by its instances, the series kept apart, the pseudonym, the pixels byte for byte, the source
 * untouched); an instance the engine refuses and one flagged for burned-in text; a cancellation that removes what the
 * run wrote; the audit record; what is refused before the job is queued.
 */
class DeidentifyJobTest {

    private static final String STUDY = "1.2.826.0.1.3680043.9.7201";
    private static final String CT = "1.2.826.0.1.3680043.9.7202";
    private static final String MR = "1.2.826.0.1.3680043.9.7203";

    @TempDir
    Path dir;
    private DerivingStore store;
    private final List<AuditEvent> audit = new CopyOnWriteArrayList<>();
    private DeidentifyJob job;

    @BeforeEach
    void open() throws Exception {
        store = DerivingStore.open(dir);
        Ingest audited = Ingest.builder(store.images(), store.index(), new UploadValidator(DerivingStore.LIMIT),
                DuplicatePolicy.REJECT).audit(audit::add).build();
        job = new DeidentifyJob(store.index(), store.images(), audited, 10);
        for (int n = 1; n <= 2; n++) {
            put("ct" + n, TestDicom.ct().patient("DEID-1", "Doe^John").study(STUDY, "20240101")
                    .series(CT, "CT", 1).instance(CT + "." + n, n));
        }
        put("mr1", TestDicom.mr().patient("DEID-1", "Doe^John").study(STUDY, "20240101").series(MR, "MR", 2)
                .instance(MR + ".1", 1));
    }

    @AfterEach
    void close() {
        store.close();
    }

    private void put(String name, TestDicom dicom) throws Exception {
        store.put("studies/" + name + ".dcm", dicom.writeTo(dir.resolve(name + ".dcm")));
    }

    private static Map<String, String> params(String... keyValues) {
        Map<String, String> p = new HashMap<>(Map.of("StudyInstanceUID", STUDY));
        for (int i = 0; i < keyValues.length; i += 2) {
            p.put(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    /** The whole data set, Pixel Data included. */
    private static AttributeList read(Path file) throws Exception {
        AttributeList list = new AttributeList();
        list.read(file.toString());
        return list;
    }

    private static String value(AttributeList list, com.pixelmed.dicom.AttributeTag tag) {
        return Attribute.getSingleStringValueOrEmptyString(list, tag);
    }

    @Test
    void copiesTheStudyAsANewDeidentifiedStudyWithItsSeriesAndPixelsAndLeavesTheSourceAlone() throws Exception {
        List<String> reports = new ArrayList<>();
        JsonObject result;
        result = json(job.run(params("options", "retain-longitudinal-modified-dates,clean-descriptors",
                "dateShiftDays", "-10", "patientId", "SUBJ-7", "patientName", "SUBJECT^7"),
                (d, t) -> reports.add(d + "/" + t), Caller.account("ulf", null)));

        assertThat(reports).containsExactly("0/3", "1/3", "2/3", "3/3");
        assertThat(result.getInt("stored")).isEqualTo(3);
        assertThat(result.getInt("refused")).isZero();
        assertThat(result.getInt("series")).isEqualTo(2);
        assertThat(result.getString("PatientID")).isEqualTo("SUBJ-7");
        assertThat(result.getString("options")).isEqualTo("retain-longitudinal-modified-dates,clean-descriptors");
        String study = result.getString("StudyInstanceUID");
        assertThat(study).startsWith("2.25.").isNotEqualTo(STUDY);
        assertThat(result.getString("directory")).isEqualTo("dicom/SUBJ-7/" + study + "/");

        List<SeriesSummary> series = store.index().series(study);
        assertThat(series).hasSize(2).extracting(SeriesSummary::seriesInstanceUid).doesNotContain(CT, MR);
        assertThat(series).extracting(SeriesSummary::numberOfSeriesRelatedInstances).containsExactly(2L, 1L);
        for (SeriesSummary s : series) {
            for (InstanceSummary i : store.index().instances(s.seriesInstanceUid())) {
                assertThat(i.patientId()).isEqualTo("SUBJ-7");
                assertThat(i.sopInstanceUid()).startsWith("2.25.");
                AttributeList list = read(store.storage().root().resolve(i.path()));
                assertThat(value(list, TagFromName.PatientName)).isEqualTo("SUBJECT^7");
                assertThat(value(list, TagFromName.PatientIdentityRemoved)).isEqualTo("YES");
                assertThat(value(list, TagFromName.StudyDate)).isEqualTo("20231222");
                String source = i.modality().equals("CT") ? "ct" + i.instanceNumber() : "mr1";
                AttributeList before = read(dir.resolve(source + ".dcm"));
                assertThat(list.get(TagFromName.PixelData).getShortValues())
                        .isEqualTo(before.get(TagFromName.PixelData).getShortValues());
            }
        }
        assertThat(store.index().series(STUDY)).hasSize(2);
        assertThat(store.index().instances(CT)).extracting(InstanceSummary::patientId).containsOnly("DEID-1");
        assertThat(audit).filteredOn(e -> e.id().code().equals("110103") && e.action() == 'C').singleElement()
                .satisfies(e -> {
                    assertThat(e.participants().get(0).userId()).isEqualTo("ulf");
                    assertThat(e.objects()).extracting(AuditEvent.ParticipantObject::id)
                            .containsExactly(STUDY, "DEID-1", study);
                });
    }

    @Test
    void anInstanceTheEngineRefusesIsNotStoredAndABurnedInOneIsFlagged() throws Exception {
        put("mr2", TestDicom.mr().patient("DEID-1", "Doe^John").study(STUDY, "20240101").series(MR, "MR", 2)
                .instance(MR + ".2", 2).set("SeriesDescription", "follow-up for Doe"));
        String us = "1.2.826.0.1.3680043.9.7204";
        put("us1", TestDicom.ct().patient("DEID-1", "Doe^John").study(STUDY, "20240101").series(us, "US", 3)
                .instance(us + ".1", 1));

        JsonObject result = json(job.run(params("options", "clean-descriptors"), (d, t) -> { }, TestCallers.USER));

        assertThat(result.getInt("instances")).isEqualTo(5);
        assertThat(result.getInt("stored")).isEqualTo(4);
        assertThat(result.getInt("refused")).isEqualTo(1);
        JsonObject refusal = result.getJsonArray("refusals").getJsonObject(0);
        assertThat(refusal.getString("SOPInstanceUID")).isEqualTo(MR + ".2");
        assertThat(refusal.getString("attribute")).isEqualTo("(0x0008,0x103e)");
        assertThat(result.getInt("needsReview")).isEqualTo(1);
        JsonObject review = result.getJsonArray("review").getJsonObject(0);
        assertThat(review.getString("Modality")).isEqualTo("US");
        assertThat(review.getString("BurnedInAnnotation")).isEqualTo("ABSENT");
        assertThat(store.index().instance(review.getString("path"))).isPresent();
        assertThat(result.getString("PatientID")).startsWith("ANON-");
        assertThat(result.getString("PatientName")).isEqualTo("ANONYMOUS");
    }

    @Test
    void aCancelledRunRemovesWhatItWrote() {
        String[] study = new String[1];
        assertThatThrownBy(() -> job.run(params("SeriesInstanceUID", CT), (done, total) -> {
            if (done == 1) {
                study[0] = store.index().instances(null).stream().map(InstanceSummary::studyInstanceUid)
                        .filter(s -> !s.equals(STUDY)).findFirst().orElseThrow();
                throw new JobQueue.Cancelled("asked to stop");
            }
        }, TestCallers.USER)).isInstanceOf(JobQueue.Cancelled.class)
                .hasMessageContaining("cancelled after 1 of 2")
                .hasMessageContaining("the 1 de-identified instances written were removed");
        assertThat(store.index().series(study[0])).isEmpty();
        assertThat(audit).filteredOn(e -> e.id().code().equals("110103") && e.action() == 'C').singleElement()
                .satisfies(e -> assertThat(e.outcomeDescription()).startsWith("cancelled"));
    }

    @Test
    void badRequestsAreRefusedBeforeTheJobIsQueued() {
        for (Map<String, String> bad : List.of(Map.<String, String>of(), params("options", "retain-everything"),
                params("options", "retain-uids"), params("secret", "0123456789abcdef0123"),
                params("dateShiftDays", "soon"), params("dateShiftDays", "99999999"),
                params("options", "retain-longitudinal-full-dates", "dateShiftDays", "3"),
                params("patientId", "DEID-1"), params("patientName", "back\\slash"), params("color", "red"),
                Map.of("StudyInstanceUID", "not a uid"))) {
            assertThatThrownBy(() -> job.validate(bad)).as(bad.toString()).isInstanceOfSatisfying(
                    StoreException.class, e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.BAD_REQUEST));
        }
        assertThatThrownBy(() -> job.validate(params("options", "nope"))).hasMessageContaining(
                "retain-longitudinal-modified-dates");
        assertThatThrownBy(() -> job.validate(Map.of("StudyInstanceUID", "1.2.3.4"))).isInstanceOfSatisfying(
                StoreException.class, e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.NOT_FOUND));
        assertThatThrownBy(() -> job.validate(params("SeriesInstanceUID", "1.2.3.4"))).isInstanceOfSatisfying(
                StoreException.class, e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.NOT_FOUND));
        DeidentifyJob small = new DeidentifyJob(store.index(), store.images(), store.ingest(), 2);
        assertThatThrownBy(() -> small.validate(params())).isInstanceOfSatisfying(StoreException.class,
                e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.TOO_LARGE));
        small.validate(params("SeriesInstanceUID", CT, "options",
                " Clean-Descriptors , retain-patient-characteristics"));
        assertThat(DeidentifyJob.OPTION_NAMES).containsKeys("retain-safe-private", "retain-uids",
                "retain-device-identity", "retain-institution-identity", "retain-patient-characteristics",
                "retain-longitudinal-full-dates", "retain-longitudinal-modified-dates", "clean-descriptors",
                "clean-structured-content", "clean-graphics").hasSize(10);
    }
}
