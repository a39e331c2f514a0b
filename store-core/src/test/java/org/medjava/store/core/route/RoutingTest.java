package org.medjava.store.core.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.TagFromName;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.ImageCodec;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.AuditTrail;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.index.Change;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.index.RouteQueue;
import org.medjava.store.core.index.RouteTask;
import org.medjava.store.core.index.TestDicom;
import org.medjava.store.core.ingest.DuplicatePolicy;
import org.medjava.store.core.ingest.Expected;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.ingest.Part10File;
import org.medjava.store.core.metrics.StoreMetrics;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.core.storage.LocalFileStorage;
import org.medjava.store.core.testsupport.MovableClock;

/**
 * Routing on one node (H2): rules match by attributes and sender, the queue is claimed under a lease that another
 * node takes over when it runs out, failures wait by the back-off and end in the dead-letter list, a retry brings a
 * task back, a duplicate the receiver holds counts as sent, and de-identification maps a study the same way on
 * every try.
 */
class RoutingTest {
    @TempDir
    Path tmp;

    private DicomIndex index;
    private ImageRepository images;
    private Ingest ingest;
    private Routing routing;
    private RouteWorker worker;
    private final MovableClock clock = new MovableClock(Instant.parse("2026-12-06T10:00:00Z"));
    private final FakeSender sender = new FakeSender();

    /** A destination that records what it got, fails while told to, and holds what it got once. */
    static final class FakeSender implements RouteSender {
        final AtomicBoolean down = new AtomicBoolean();
        final Map<String, Integer> received = new HashMap<>();
        final List<AttributeList> dataSets = new ArrayList<>();

        @Override
        public String problem(RouteRule.Destination d) {
            return RouteRule.DIMSE.equals(d.kind()) && !d.ae().equals("ARCHIVE") ? "no remote " + d.ae() : null;
        }

        @Override
        public String address(RouteRule.Destination d) {
            return "127.0.0.1";
        }

        @Override
        public Map<String, Outcome> send(RouteRule.Destination d, List<Part10File> files) {
            Map<String, Outcome> out = new HashMap<>();
            for (Part10File f : files) {
                if (down.get()) {
                    out.put(f.sopInstanceUid(), Outcome.failed("connection refused"));
                    continue;
                }
                try {
                    AttributeList list = new AttributeList();
                    list.read(f.file().toString());
                    dataSets.add(list);
                } catch (IOException | com.pixelmed.dicom.DicomException e) {
                    throw new IllegalStateException(e);
                }
                boolean held = received.merge(f.sopInstanceUid(), 1, Integer::sum) > 1;
                out.put(f.sopInstanceUid(), held ? Outcome.held("0111") : Outcome.ok());
            }
            return out;
        }
    }

    @BeforeEach
    void setUp() throws IOException {
        index = new DicomIndex(IndexDatabase.h2(Files.createDirectories(tmp.resolve("db"))));
        images = new ImageRepository(new LocalFileStorage(Files.createDirectories(tmp.resolve("images"))), 1 << 24);
        ingest = Ingest.builder(images, index, new UploadValidator(ImageCodec.DEFAULT_MAX_PIXELS),
                DuplicatePolicy.REJECT).build();
        routing = new Routing(index, RouteBook.directory(tmp.resolve("routes")), sender, clock);
        ingest.afterReceive(routing);
        worker = new RouteWorker(routing, index, images, sender, new RouteWorker.Settings("node-a",
                Duration.ofMinutes(1), 10, new Backoff(Duration.ofSeconds(5), Duration.ofHours(1), 3),
                Duration.ofSeconds(1)), tmp.resolve("work"), AuditTrail.NONE, StoreMetrics.NONE, clock);
    }

    @AfterEach
    void tearDown() {
        index.close();
    }

    private void receive(String sender, String study, String modality, String description, int instances)
            throws Exception {
        for (int i = 1; i <= instances; i++) {
            TestDicom dicom = (modality.equals("CT") ? TestDicom.ct() : TestDicom.mr()).patient("P-" + study,
                    "Route^Test").study(study, "20260101").set("StudyDescription", description)
                    .series(study + ".1", modality, 1).instance(study + ".1." + i, i);
            Path staged = images.newStagingFile("test-");
            dicom.writeTo(staged);
            ingest.receive(staged, Expected.NOTHING, Caller.dicom(sender, "127.0.0.1"));
        }
    }

    private void ctToArchive() {
        routing.put("ct-archive", Map.of("Modality", "CT", RouteRule.SOURCE_AE, "MODALITY*", "StudyDescription",
                "*head*"), new RouteRule.Destination("dimse", "ARCHIVE", null, null), null, null, true, false, "admin");
    }

    @Test
    void matchesByAttributesWildcardsAndSender() throws Exception {
        ctToArchive();
        receive("MODALITY1", "1.2.826.77.1", "CT", "CT HEAD w/o", 2);
        receive("MODALITY1", "1.2.826.77.2", "MR", "MR head", 1);
        receive("OTHER", "1.2.826.77.3", "CT", "CT HEAD", 1);
        receive("modality2", "1.2.826.77.4", "CT", "Chest", 1);
        assertThat(routing.tasks(RouteTask.QUEUED, 100)).extracting(RouteTask::studyInstanceUid)
                .containsOnly("1.2.826.77.1").hasSize(2);
        assertThat(routing.tasks(null, 100).get(0).sourceAe()).isEqualTo("MODALITY1");
        assertThat(RouteRule.wildcard("C?", "ct")).isTrue();
        assertThat(RouteRule.wildcard("C?", "CTX")).isFalse();
    }

    @Test
    void refusesBadRules() {
        RouteRule.Destination archive = new RouteRule.Destination("dimse", "ARCHIVE", null, null);
        assertThatThrownBy(() -> routing.put("all", Map.of(), archive, null, null, true, false, "admin"))
                .isInstanceOf(StoreException.class).hasMessageContaining("confirm=true");
        assertThat(routing.put("all", Map.of("Modality", "*"), archive, null, null, true, true, "admin")
                .confirmed()).isTrue();
        assertThatThrownBy(() -> routing.put("x", Map.of("Modality", "CT"), new RouteRule.Destination("dimse",
                "NOWHERE", null, null), null, null, true, false, "admin")).hasMessageContaining("no remote NOWHERE");
        assertThatThrownBy(() -> routing.put("x", Map.of("Colour", "red"), archive, null, null, true, false, "a"))
                .hasMessageContaining("Colour");
        assertThatThrownBy(() -> new RouteRule.Destination("stow", null, "ftp://x/studies", null))
                .hasMessageContaining("destination.url");
        assertThatThrownBy(() -> routing.put("x", Map.of("Modality", "CT"), archive, List.of("no-such-option"),
                null, true, false, "a")).hasMessageContaining("no option");
        assertThatThrownBy(() -> routing.put("x", Map.of("Modality", "CT"), archive, null, "1.2.3", true, false,
                "a")).hasMessageContaining("transcode");
    }

    @Test
    void backOffDoublesUpToItsCeilingThenGivesUp() {
        Backoff b = new Backoff(Duration.ofSeconds(5), Duration.ofSeconds(30), 6);
        assertThat(List.of(b.after(1), b.after(2), b.after(3), b.after(4), b.after(5))).containsExactly(
                Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(30),
                Duration.ofSeconds(30));
        assertThat(b.after(6)).isNull();
    }

    @Test
    void aClaimIsHeldUntilItsLeaseRunsOutThenAnotherNodeTakesItOver() throws Exception {
        ctToArchive();
        receive("MODALITY1", "1.2.826.77.5", "CT", "HEAD", 2);
        RouteQueue queue = index.routes();
        RouteQueue.Claimed a = queue.claim("node-a", clock.instant(), Duration.ofSeconds(30), 10);
        assertThat(a.tasks()).hasSize(2).allMatch(t -> t.state().equals(RouteTask.SENDING));
        assertThat(queue.claim("node-b", clock.instant(), Duration.ofSeconds(30), 10).tasks()).isEmpty();
        clock.advance(Duration.ofSeconds(31)); // node-a died while sending
        RouteQueue.Claimed b = queue.claim("node-b", clock.instant(), Duration.ofSeconds(30), 10);
        assertThat(b.tasks()).hasSize(2).allMatch(t -> t.node().equals("node-b"));
        long id = a.tasks().get(0).id();
        assertThat(queue.sent(id, a.token(), null, clock.instant())).as("the old claim is fenced off").isFalse();
        assertThat(queue.sent(id, b.token(), null, clock.instant())).isTrue();
        assertThat(queue.task(id).orElseThrow().state()).isEqualTo(RouteTask.SENT);
    }

    @Test
    void failuresWaitByTheBackOffThenGoToTheDeadLettersAndARetrySendsThem() throws Exception {
        ctToArchive();
        sender.down.set(true);
        receive("MODALITY1", "1.2.826.77.6", "CT", "HEAD", 1);
        assertThat(worker.round()).isEqualTo(1);
        RouteTask t = routing.tasks(null, 10).get(0);
        assertThat(t.state()).isEqualTo(RouteTask.FAILED);
        assertThat(t.lastError()).contains("connection refused");
        assertThat(t.nextAttempt()).isEqualTo(clock.instant().plusSeconds(5));
        assertThat(worker.round()).as("not due yet").isZero();
        clock.advance(Duration.ofSeconds(5));
        assertThat(worker.round()).isEqualTo(1);
        assertThat(routing.task(t.id()).nextAttempt()).isEqualTo(clock.instant().plusSeconds(10));
        clock.advance(Duration.ofSeconds(10));
        worker.round();
        RouteTask dead = routing.task(t.id());
        assertThat(dead.state()).isEqualTo(RouteTask.DEAD);
        assertThat(dead.attempts()).isEqualTo(3);
        assertThat(routing.tasks(RouteTask.DEAD, 10)).hasSize(1);

        sender.down.set(false);
        assertThat(routing.retry(t.id()).state()).isEqualTo(RouteTask.QUEUED);
        worker.round();
        RouteTask sent = routing.task(t.id());
        assertThat(sent.state()).isEqualTo(RouteTask.SENT);
        assertThat(sent.attempts()).isEqualTo(4);
        assertThat(sender.received).containsEntry("1.2.826.77.6.1.1", 1);
        assertThat(routing.history("1.2.826.77.6")).hasSize(1);
        // the change feed says it was routed once it was sent, not at each failed try
        assertThat(index.changes(0, 100)).filteredOn(c -> c.kind().equals(Change.ROUTED)).singleElement()
                .satisfies(c -> {
                    assertThat(c.sopInstanceUid()).isEqualTo("1.2.826.77.6.1.1");
                    assertThat(c.path()).isEqualTo(index.pathsOf("1.2.826.77.6.1.1").get(0));
                });
        assertThatThrownBy(() -> routing.retry(t.id())).hasMessageContaining("only a dead or failed");
    }

    @Test
    void theHistoryForgetsWhatWasSentLongerAgoThanItKeepsButNeverTheQueueOrTheDeadLetters() throws Exception {
        ctToArchive();
        receive("MODALITY1", "1.2.826.77.10", "CT", "HEAD", 3); // sent now
        worker.round();
        clock.advance(Duration.ofDays(20));
        receive("MODALITY1", "1.2.826.77.11", "CT", "HEAD", 1); // sent 20 days later
        worker.round();
        sender.down.set(true);
        receive("MODALITY1", "1.2.826.77.12", "CT", "HEAD", 1); // dead
        for (int i = 0; i < 3; i++) {
            worker.round();
            clock.advance(Duration.ofHours(1));
        }
        receive("MODALITY1", "1.2.826.77.13", "CT", "HEAD", 1); // queued
        clock.advance(Duration.ofDays(15)); // the first study was sent 35 days ago, the second 15

        assertThat(routing.forgetSent(Duration.ofDays(30))).isEqualTo(3);
        assertThat(routing.history("1.2.826.77.10")).isEmpty();
        assertThat(routing.history("1.2.826.77.11")).singleElement().extracting(RouteTask::state)
                .isEqualTo(RouteTask.SENT);
        assertThat(routing.history("1.2.826.77.12")).singleElement().extracting(RouteTask::state)
                .isEqualTo(RouteTask.DEAD);
        assertThat(routing.history("1.2.826.77.13")).singleElement().extracting(RouteTask::state)
                .isEqualTo(RouteTask.QUEUED);
        assertThat(routing.forgetSent(Duration.ofDays(30))).isZero();
    }

    @Test
    void aDuplicateTheReceiverHoldsCountsAsSentAndARunOnDemandQueuesTheStudyOnce() throws Exception {
        ctToArchive();
        receive("MODALITY1", "1.2.826.77.7", "CT", "HEAD", 2);
        worker.round();
        assertThat(routing.run("ct-archive", "1.2.826.77.7")).isEqualTo(2);
        assertThat(routing.run("ct-archive", "1.2.826.77.7")).as("still queued").isZero();
        worker.round();
        assertThat(routing.history("1.2.826.77.7")).hasSize(4).allMatch(t -> t.state().equals(RouteTask.SENT));
        assertThat(routing.history("1.2.826.77.7").get(3).lastError()).contains("held it already");
        assertThatThrownBy(() -> routing.run("ct-archive", "1.2.826.77.999")).isInstanceOf(StoreException.class)
                .hasMessageContaining("no study");
    }

    @Test
    void deidentifiesWithTheRulesSecretTheSameWayOnEveryTry() throws Exception {
        routing.put("research", Map.of("Modality", "MR"), new RouteRule.Destination("stow", null,
                "http://127.0.0.1:1/dicomweb/studies", "Basic eDp5"), List.of("retain-patient-characteristics"),
                null, true, false, "admin");
        receive("MRI", "1.2.826.77.8", "MR", "Brain", 2);
        worker.round();
        routing.run("research", "1.2.826.77.8");
        worker.round();
        assertThat(sender.dataSets).hasSize(4);
        List<String> studies = sender.dataSets.stream().map(l -> Attribute.getSingleStringValueOrEmptyString(l,
                TagFromName.StudyInstanceUID)).distinct().toList();
        assertThat(studies).hasSize(1).noneMatch(s -> s.equals("1.2.826.77.8"));
        assertThat(sender.dataSets).allMatch(l -> Attribute.getSingleStringValueOrEmptyString(l,
                TagFromName.PatientID).startsWith("ANON-"));
        assertThat(sender.received.values()).containsOnly(2); // each de-identified instance got the same UID twice
        assertThat(routing.rule("research").masked().destination().auth()).isEqualTo("(set)");
    }
}
