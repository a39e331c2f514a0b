package org.medjava.store.core.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.SequenceAttribute;
import com.pixelmed.dicom.TagFromName;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import javax.json.Json;
import javax.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.filter.runtime.CallControl;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.derive.DerivedImages;
import org.medjava.store.core.index.IndexEntry;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.TestDicom;
import org.medjava.store.core.render.RenderRequest;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.testsupport.DerivingStore;
import org.medjava.store.core.testsupport.TestCallers;

/**
 * {@link DeriveSeriesJob}: a filter chain over every instance of a CT series, kept as one derived series at the
 * source's depth; progress per instance; a re-run that leaves no duplicates; a failure or a cancellation part-way
 * that removes what the run wrote and says so; what is refused before the job is queued.
 */
class DeriveSeriesJobTest {

    private static final String STUDY = "1.2.826.0.1.3680043.9.7101";
    private static final String SERIES = "1.2.826.0.1.3680043.9.7102";
    private static final int INSTANCES = 4;

    @TempDir
    Path dir;
    private DerivingStore store;
    private DeriveSeriesJob job;

    @BeforeEach
    void open() throws Exception {
        store = DerivingStore.open(dir);
        job = new DeriveSeriesJob(store.index(), store.derived(), store.renderer(), store.ingest(), 10);
        for (int n = INSTANCES; n >= 1; n--) { // stored out of order: the job goes by Instance Number
            Path ct = TestDicom.ct().patient("SER-1", "Series^Test").study(STUDY, "20240101")
                    .series(SERIES, "CT", 4).instance(SERIES + "." + n, n).writeTo(dir.resolve("ct" + n + ".dcm"));
            store.put("studies/ct" + n + ".dcm", ct);
        }
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static Map<String, String> params(String... keyValues) {
        Map<String, String> p = new HashMap<>(Map.of("SeriesInstanceUID", SERIES, "filter", "fill",
                "region", "0,0,8,8", "window", "40,400"));
        for (int i = 0; i < keyValues.length; i += 2) {
            p.put(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    /** Records every report; {@code onReport} may throw as a queue would. */
    private static final class Reports implements JobKind.Progress {
        final List<String> seen = new ArrayList<>();
        final BiConsumer<Integer, Integer> onReport;

        Reports(BiConsumer<Integer, Integer> onReport) {
            this.onReport = onReport;
        }

        @Override
        public void update(int done, int total) {
            seen.add(done + "/" + total);
            onReport.accept(done, total);
        }
    }

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    private List<InstanceSummary> derivedSeries() {
        return store.index().instances(seriesUid());
    }

    /** The derived series' UID, as {@link DerivedImages} gives it for this source series and chain. */
    private String seriesUid() {
        try {
            Map<String, List<String>> q = Map.of("filter", List.of("fill"), "region", List.of("0,0,8,8"),
                    "window", List.of("40,400"));
            var probe = store.derived().derive(StorePath.parse("studies/ct1.dcm"), RenderRequest.parse(q),
                    CallControl.unlimited(), TestCallers.USER);
            store.ingest().delete(probe.path(), Preconditions.NONE, TestCallers.USER);
            return probe.seriesInstanceUid();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void derivesEveryInstanceInOrderIntoOneSixteenBitSeriesReportingProgress() throws Exception {
        Reports reports = new Reports((d, t) -> { });
        JsonObject result = json(job.run(params(), reports, TestCallers.USER));

        assertThat(reports.seen).containsExactly("0/4", "1/4", "2/4", "3/4", "4/4");
        assertThat(result.getInt("derived")).isEqualTo(INSTANCES);
        assertThat(result.getString("StudyInstanceUID")).isEqualTo(STUDY);
        assertThat(result.getInt("replaced")).isZero();
        String series = result.getString("SeriesInstanceUID");
        assertThat(series).isNotEqualTo(SERIES).isEqualTo(seriesUid());
        assertThat(result.getString("first")).startsWith(result.getString("directory"))
                .startsWith("dicom/SER-1/" + STUDY + "/" + series + "/");

        List<InstanceSummary> out = store.index().instances(series);
        assertThat(out).hasSize(INSTANCES).allSatisfy(i -> {
            assertThat(i.modality()).isEqualTo("CT");
            assertThat(i.bitsAllocated()).isEqualTo(16);
        });
        assertThat(out).extracting(InstanceSummary::instanceNumber).containsExactly(1, 2, 3, 4);
        DicomImage source = DicomCodec.read(Files.readAllBytes(dir.resolve("ct2.dcm")), 0, 1 << 24);
        for (InstanceSummary i : out) {
            byte[] file = Files.readAllBytes(store.storage().root().resolve(i.path()));
            AttributeList list = DicomCodec.read(file, 0, 1 << 24).header();
            SequenceAttribute ref = (SequenceAttribute) list.get(TagFromName.SourceImageSequence);
            assertThat(ref.getItem(0).getAttributeList().get(TagFromName.ReferencedSOPInstanceUID)
                    .getSingleStringValueOrEmptyString()).isEqualTo(SERIES + "." + i.instanceNumber());
            DicomImage back = DicomCodec.read(file, 0, 1 << 24);
            assertThat(back.bitsStored()).isEqualTo(source.bitsStored());
            assertThat(back.rescaleIntercept()).isEqualTo(source.rescaleIntercept());
            assertThat(back.storedValues()[0]).as("filtered inside the region").isEqualTo(77);
        }
    }

    @Test
    void aRunAgainReplacesWhatAnEarlierRunOrCutOffAttemptLeft() throws Exception {
        job.run(params(), new Reports((d, t) -> { }), TestCallers.USER);
        // an attempt cut off (its node died) after two instances left them: written, never cleaned up
        assertThatThrownBy(() -> job.run(params(), new Reports((d, t) -> {
            if (d == 2) {
                throw new Error("node died");
            }
        }), TestCallers.USER)).hasMessage("node died");
        assertThat(derivedSeries()).hasSize(INSTANCES + 2);

        JsonObject again = json(job.run(params(), new Reports((d, t) -> { }), TestCallers.USER));
        assertThat(again.getInt("replaced")).isEqualTo(INSTANCES + 2);
        assertThat(derivedSeries()).as("one derived instance per source instance").hasSize(INSTANCES)
                .extracting(InstanceSummary::instanceNumber).containsExactly(1, 2, 3, 4);
    }

    @Test
    void aFailurePartWayRemovesWhatTheRunWroteAndKeepsAnEarlierResult() throws Exception {
        job.run(params(), new Reports((d, t) -> { }), TestCallers.USER);
        List<String> earlier = derivedSeries().stream().map(InstanceSummary::path).toList();
        Files.delete(store.storage().root().resolve("studies/ct3.dcm")); // gone behind the index's back

        assertThatThrownBy(() -> job.run(params(), new Reports((d, t) -> { }), TestCallers.USER))
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith("failed at instance 3 of 4 (studies/ct3.dcm): ")
                .hasMessageContaining("the 2 derived instances written were removed")
                .hasMessageEndingWith("still holds the 4 instances it held before this run");
        assertThat(derivedSeries()).extracting(InstanceSummary::path).containsExactlyInAnyOrderElementsOf(earlier);
    }

    @Test
    void aCancellationPartWayRemovesWhatTheRunWrote() {
        Reports reports = new Reports((d, t) -> {
            if (d == 2) {
                throw new JobQueue.Cancelled("job x was cancelled");
            }
        });
        assertThatThrownBy(() -> job.run(params(), reports, TestCallers.USER)).isInstanceOf(JobQueue.Cancelled.class)
                .hasMessage("cancelled after 2 of 4; the 2 derived instances written were removed");
        assertThat(derivedSeries()).isEmpty();
        assertThat(store.index().instances(SERIES)).as("the source is untouched").hasSize(INSTANCES);

        assertThatThrownBy(() -> job.run(params(), new Reports((d, t) -> {
            throw new JobQueue.Cancelled("job x was cancelled");
        }), TestCallers.USER)).isInstanceOf(JobQueue.Cancelled.class)
                .hasMessage("cancelled after 0 of 4; nothing had been written");
    }

    @Test
    void aSeriesAboveTheLimitIsRefusedBeforeWorkStarts() {
        DeriveSeriesJob small = new DeriveSeriesJob(store.index(), store.derived(), store.renderer(), null, 3);
        assertThatThrownBy(() -> small.validate(params())).isInstanceOfSatisfying(StoreException.class, e -> {
            assertThat(e.kind()).isEqualTo(StoreException.Kind.TOO_LARGE);
            assertThat(e.getMessage()).contains("has 4 instances, more than the 3")
                    .contains(DeriveSeriesJob.MAX_INSTANCES_SETTING);
        });
    }

    @Test
    void aBadRequestIsRefusedSayingWhatIsWrong() {
        assertThat(status(params("filter", "nope"))).isEqualTo(400);
        assertThat(message(params("filter", "nope"))).contains("nope");
        assertThat(status(params("filter", "fill:n=3"))).isEqualTo(400);
        assertThat(status(params("filter", ""))).isEqualTo(400);
        assertThat(status(params("frame", "2"))).isEqualTo(400);
        assertThat(message(params("frame", "2"))).contains("takes no parameter \"frame\"");
        assertThat(status(params("region", "1,2"))).isEqualTo(400);
        assertThat(status(params("SeriesInstanceUID", "1.2.3.404"))).isEqualTo(404);
        job.validate(params()); // and a good one passes
    }

    @Test
    void dataNoFilterServesAndMultiFrameInstancesAreRefusedFromTheIndex() throws Exception {
        indexOnly("wide/one.dcm", "1.2.826.0.1.3680043.9.7201", "MONOCHROME2", "32", "1");
        assertThat(status(params("SeriesInstanceUID", "1.2.826.0.1.3680043.9.7201"))).isEqualTo(422);
        assertThat(message(params("SeriesInstanceUID", "1.2.826.0.1.3680043.9.7201")))
                .contains("fill cannot filter 32-bit grey data").contains("wide/one.dcm");
        indexOnly("colour/one.dcm", "1.2.826.0.1.3680043.9.7202", "RGB", "16", "1");
        assertThat(message(params("SeriesInstanceUID", "1.2.826.0.1.3680043.9.7202")))
                .contains("fill cannot filter 16-bit RGB colour data");
        indexOnly("multi/one.dcm", "1.2.826.0.1.3680043.9.7203", "MONOCHROME2", "16", "3");
        assertThat(status(params("SeriesInstanceUID", "1.2.826.0.1.3680043.9.7203"))).isEqualTo(422);
        assertThat(message(params("SeriesInstanceUID", "1.2.826.0.1.3680043.9.7203")))
                .contains("has 3 frames").contains("frame by frame with POST /derived");
    }

    /** An instance the index knows (only its header: the job's checks at submission read nothing else). */
    private void indexOnly(String path, String series, String photometric, String bitsAllocated, String frames)
            throws Exception {
        AttributeList list = DicomCodec.read(Files.readAllBytes(dir.resolve("ct1.dcm")), 0, 1 << 24).header();
        set(list, TagFromName.SeriesInstanceUID, series);
        set(list, TagFromName.SOPInstanceUID, series + ".1");
        set(list, TagFromName.PhotometricInterpretation, photometric);
        set(list, TagFromName.BitsAllocated, bitsAllocated);
        set(list, TagFromName.NumberOfFrames, frames);
        store.index().put(IndexEntry.of(path, list), 1000, System.currentTimeMillis());
    }

    private static void set(AttributeList list, com.pixelmed.dicom.AttributeTag tag, String value) throws Exception {
        var a = com.pixelmed.dicom.AttributeFactory.newAttribute(tag);
        a.addValue(value);
        list.put(a);
    }

    private int status(Map<String, String> params) {
        try {
            job.validate(params);
            return 200;
        } catch (StoreException e) {
            return e.kind().status;
        }
    }

    private String message(Map<String, String> params) {
        try {
            job.validate(params);
            return "";
        } catch (StoreException e) {
            return e.getMessage();
        }
    }
}
