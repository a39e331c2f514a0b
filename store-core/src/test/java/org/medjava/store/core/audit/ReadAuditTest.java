package org.medjava.store.core.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ReadAuditTest {

    private final List<AuditEvent> events = new CopyOnWriteArrayList<>();
    private final Map<String, ReadAudit.StudyRef> index = Map.of(
            "ct/1.dcm", new ReadAudit.StudyRef("1.2.3", "P1"),
            "ct/2.dcm", new ReadAudit.StudyRef("1.2.3", "P1"),
            "mr/1.dcm", new ReadAudit.StudyRef("1.2.9", "P2"));
    private final ReadAudit audit = new ReadAudit(events::add, Duration.ofHours(1), index::get);

    @AfterEach
    void close() {
        audit.close();
    }

    private List<AuditRecord> records() {
        return events.stream().map(e -> AuditRecord.of(e, "MEDJAVA@test")).toList();
    }

    @Test
    void readsOfOneStudyByOneCallerThroughOneDoorAreOneEventPerWindow() {
        Caller alice = Caller.account("alice", "10.0.0.5");
        audit.file(alice, "front", "ct/1.dcm");
        audit.file(alice, "front", "ct/1.dcm");
        audit.file(alice, "front", "ct/2.dcm");
        audit.file(alice, "front", "mr/1.dcm");
        audit.file(alice, "front", "logo.png"); // not a DICOM instance: no study read
        audit.read(alice, "dicomweb", "1.2.3", "P1", 2);
        audit.read(Caller.account("bob", "10.0.0.6"), "dicomweb", "1.2.3", "P1", 1);
        assertThat(events).isEmpty(); // nothing is written on the reader's thread
        audit.flush();

        assertThat(records()).extracting(r -> r.user() + " " + r.door() + " " + r.studyInstanceUid() + " "
                + r.patientId() + " " + r.type() + " " + r.eventId()).containsExactlyInAnyOrder(
                "alice front 1.2.3 P1 read 110103", "alice front 1.2.9 P2 read 110103",
                "alice dicomweb 1.2.3 P1 read 110103", "bob dicomweb 1.2.3 P1 read 110103");
        AuditRecord ct = records().stream().filter(r -> r.door().equals("front") && r.patientId().equals("P1"))
                .findFirst().orElseThrow();
        assertThat(ct.description()).startsWith("2 instances read over front (3 requests)");
        assertThat(ct.address()).isEqualTo("10.0.0.5");
        AuditMessage.toXml(events.get(0), AuditMessageTest.SOURCE); // a well-formed message

        events.clear();
        audit.flush();
        assertThat(events).isEmpty(); // a window without reads records nothing
        audit.file(alice, "front", "ct/1.dcm");
        audit.flush();
        assertThat(records()).singleElement().extracting(AuditRecord::description).asString()
                .startsWith("1 instances read over front (1 request) at ");
    }

    @Test
    void queriesCarryTheQueryBase64AndExportsTheirDestination() throws Exception {
        Caller ae = Caller.dicom("FINDSCU", "127.0.0.1");
        audit.query(ae, "dimse", "1.2.840.10008.5.1.4.1.2.2.1", "PatientID=P1", null, "P1");
        audit.query(ae, "dimse", "1.2.840.10008.5.1.4.1.2.2.1", "PatientID=P1", null, "P1");
        audit.export(ae, "dimse", "DEST", "127.0.0.1", "1.2.3", "P1", 2);
        audit.flush();

        assertThat(records()).extracting(AuditRecord::type).containsExactlyInAnyOrder("query", "export");
        AuditEvent query = events.stream().filter(e -> e.id().equals(Coded.QUERY)).findFirst().orElseThrow();
        String xml = AuditMessage.toXml(query, AuditMessageTest.SOURCE);
        assertThat(xml).contains("<ParticipantObjectQuery>" + java.util.Base64.getEncoder()
                .encodeToString("PatientID=P1".getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .contains("AlternativeUserID=\"AETITLES=FINDSCU\"").contains("2 requests");
        AuditMessageTest.parse(xml);
        assertThat(records()).filteredOn(r -> r.type().equals("export")).singleElement()
                .satisfies(r -> assertThat(r.eventId()).isEqualTo("110106"))
                .satisfies(r -> assertThat(r.description()).startsWith("2 instances sent to DEST"));
    }

    @Test
    void readsOnManyThreadsAreAllCounted() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        Caller alice = Caller.account("alice", "10.0.0.5");
        for (int t = 0; t < 4; t++) {
            pool.execute(() -> {
                for (int i = 0; i < 10_000; i++) {
                    audit.file(alice, "front", "ct/1.dcm");
                    if (i % 2_500 == 0) {
                        audit.flush(); // windows close while the reads go on
                    }
                }
            });
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        audit.flush();
        audit.flush(); // what came late into the window before
        long requests = records().stream().mapToLong(r -> Long.parseLong(r.description()
                .replaceAll(".*\\((\\d+) requests?\\).*", "$1"))).sum();
        assertThat(requests).isEqualTo(40_000);
    }

    @Test
    void offRecordsNothing() {
        ReadAudit.OFF.file(null, "front", "ct/1.dcm");
        ReadAudit.OFF.flush();
        ReadAudit.OFF.close();
    }
}
