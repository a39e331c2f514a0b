package org.medjava.store.core.jobs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.json.Json;
import javax.json.JsonArrayBuilder;
import javax.json.JsonObjectBuilder;
import org.medjava.filter.UnsupportedDataException;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.derive.DerivedImages;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.ingest.Ingested;
import org.medjava.store.core.render.RenderRequest;
import org.medjava.store.core.render.RenderService;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;

/**
 * Applies a filter chain to every instance of a series, in instance order, and stores the results as one derived
 * DICOM series through {@link DerivedImages} (what {@code POST /derived} does for one image: the source's depth for
 * grey, provenance, Source Image Sequence; the derived series UID is the one DerivedImages gives that source series and
 * chain). Parameters: {@code SeriesInstanceUID}, {@code filter} (steps separated by {@code |}, as for
 * {@code render-series}), and optionally {@code window}, {@code region}, {@code impl}. Progress is instances done of
 * the series' instances. Unlike {@code render-series} (8-bit PNG exports under {@code derived/}), the result is DICOM
 * that viewers and PACS open as a series of the study.
 *
 * <p><b>Checked at submission</b> ({@link #validate}), from the index, before anything is queued: the chain (400
 * naming the filter or parameter rule), the series (404), its size (413 above {@code maxInstances}, the setting
 * {@value #MAX_INSTANCES_SETTING}), data no filter serves (422: grey of more than 16 bits allocated, colour of more
 * than 8) and multi-frame instances (422). <b>Multi-frame instances are refused</b>: a derived object of one frame
 * takes the frame number as its Instance Number, so the frames of two multi-frame sources would share numbers; derive
 * a multi-frame image frame by frame with {@code POST /derived}.
 *
 * <p><b>No duplicates on a re-run</b> (a job taken over from a dead node starts again, as does a repeated request):
 * the derived SOP Instance UIDs are new on every run, so the run notes which instances the target series held before
 * its first write, and removes them (through {@link Ingest#delete}, so the index follows) only once every instance of
 * this run is stored. The series thus never loses a complete earlier result to a failed run, and after a successful
 * one holds exactly one derived instance per source instance (for a while during the run it holds both).
 *
 * <p><b>No half series left silently</b>: when an instance fails, or the job is cancelled ({@link JobQueue.Cancelled}
 * at a progress report) or lost to another node, the instances this run wrote are removed before the job ends, and its
 * result says how far it got and what was removed; if a removal fails it names what was left, and it names what the
 * series still holds from before the run.
 */
public final class DeriveSeriesJob implements JobKind {

    public static final String KIND = "derive-series";
    /** The setting that limits how many instances one job may derive. */
    public static final String MAX_INSTANCES_SETTING = "medjava.jobs.max-series-instances";
    public static final int DEFAULT_MAX_INSTANCES = 5000;
    private static final List<String> PARAMS = List.of("SeriesInstanceUID", "filter", "window", "region", "impl");
    private static final Logger LOG = Logger.getLogger(DeriveSeriesJob.class.getName());

    private final DicomIndex index;
    private final DerivedImages derived;
    private final RenderService renderer;
    private final Ingest ingest;
    private final int maxInstances;

    public DeriveSeriesJob(DicomIndex index, DerivedImages derived, RenderService renderer, Ingest ingest,
                           int maxInstances) {
        this.index = index;
        this.derived = derived;
        this.renderer = renderer;
        this.ingest = ingest;
        this.maxInstances = maxInstances;
    }

    @Override
    public void validate(Map<String, String> params) {
        RenderRequest request = request(params);
        sources(params.get("SeriesInstanceUID"), request);
    }

    @Override
    public String run(Map<String, String> params, Progress progress, Caller owner) {
        RenderRequest request = request(params);
        List<InstanceSummary> sources = sources(params.get("SeriesInstanceUID"), request); // it may have changed
        List<Ingested> written = new ArrayList<>();
        Set<String> before = new LinkedHashSet<>();
        try {
            progress.update(0, sources.size());
        } catch (JobQueue.Cancelled e) {
            throw new JobQueue.Cancelled("cancelled after 0 of " + sources.size() + "; nothing had been written");
        }
        for (InstanceSummary source : sources) {
            try {
                Ingested d = derived.derive(StorePath.parse(source.path()), request, RenderService.forJob(), owner);
                if (written.isEmpty()) {
                    index.instances(d.seriesInstanceUid()).forEach(i -> before.add(i.path()));
                    before.remove(d.path().relative());
                }
                written.add(d);
            } catch (RuntimeException | java.io.IOException e) {
                StoreException.Kind kind = e instanceof StoreException s ? s.kind() : StoreException.Kind.UNPROCESSABLE;
                throw new StoreException(kind, "failed at instance " + (written.size() + 1) + " of "
                        + sources.size() + " (" + source.path() + "): " + e.getMessage() + "; "
                        + undo(written, before, owner), e);
            }
            try {
                progress.update(written.size(), sources.size());
            } catch (JobQueue.Cancelled e) {
                throw new JobQueue.Cancelled("cancelled after " + written.size() + " of " + sources.size() + "; "
                        + undo(written, before, owner));
            } catch (JobQueue.Lost e) {
                LOG.warning(e.getMessage() + "; " + undo(written, before, owner));
                throw e;
            }
        }
        List<String> notReplaced = remove(before, owner);
        return result(written, before.size() - notReplaced.size(), notReplaced);
    }

    /** The request a job's parameters describe; 400 for unknown parameters, a missing or bad chain. */
    private RenderRequest request(Map<String, String> params) {
        for (String key : params.keySet()) {
            if (!PARAMS.contains(key)) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, KIND + " takes no parameter \"" + key
                        + "\"; it takes " + String.join(", ", PARAMS));
            }
        }
        String series = params.get("SeriesInstanceUID");
        if (series == null || series.isBlank()) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, KIND + " needs SeriesInstanceUID");
        }
        String filter = params.get("filter");
        if (filter == null || filter.isBlank()) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, KIND + " needs a filter chain: \"filter\": "
                    + "\"blur:n=3|sharpen:p=50\"");
        }
        Map<String, List<String>> query = new HashMap<>();
        for (String key : List.of("filter", "window", "region", "impl")) {
            if (params.get(key) != null && !params.get(key).isBlank()) {
                query.put(key, List.of(params.get(key)));
            }
        }
        RenderRequest request = RenderRequest.parse(query);
        renderer.validate(request);
        return request;
    }

    /** The series' instances, in instance order, checked for what the job can derive (404, 413, 422). */
    private List<InstanceSummary> sources(String series, RenderRequest request) {
        List<InstanceSummary> instances = index.instances(series);
        if (instances.isEmpty()) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "the store holds no instances of series "
                    + series);
        }
        if (instances.size() > maxInstances) {
            throw new StoreException(StoreException.Kind.TOO_LARGE, "series " + series + " has "
                    + instances.size() + " instances, more than the " + maxInstances + " one " + KIND
                    + " job may derive; an administrator can raise the limit with the setting "
                    + MAX_INSTANCES_SETTING + " (environment MEDJAVA_JOBS_MAX_SERIES_INSTANCES)");
        }
        for (InstanceSummary i : instances) {
            if (i.numberOfFrames() != null && i.numberOfFrames() > 1) {
                throw new StoreException(StoreException.Kind.UNPROCESSABLE, i.path() + " has " + i.numberOfFrames()
                        + " frames: " + KIND + " derives single-frame instances only; derive a multi-frame image"
                        + " frame by frame with POST /derived");
            }
            String unservable = unservable(i);
            if (unservable != null) {
                String filter = request.filters().get(0).filterId();
                throw new StoreException(StoreException.Kind.UNPROCESSABLE, new UnsupportedDataException(filter,
                        unservable, "8-bit RGB and 1..16-bit signed or unsigned grey only").getMessage() + " ("
                        + i.path() + " in series " + series + ")");
            }
        }
        return instances;
    }

    /** What the index says of an instance's data when no filter serves it, else null (also when it does not know). */
    private static String unservable(InstanceSummary i) {
        if (i.bitsAllocated() == null || i.photometricInterpretation() == null) {
            return null;
        }
        boolean grey = i.photometricInterpretation().startsWith("MONOCHROME");
        if (grey && i.bitsAllocated() > 16) {
            return i.bitsAllocated() + "-bit grey";
        }
        if (!grey && i.bitsAllocated() != 8) {
            return i.bitsAllocated() + "-bit " + i.photometricInterpretation() + " colour";
        }
        return null;
    }

    /** Removes what this run wrote; says what was removed, what was left, and what the series held before. */
    private String undo(List<Ingested> written, Set<String> before, Caller owner) {
        if (written.isEmpty()) {
            return "nothing had been written";
        }
        List<String> paths = written.stream().map(w -> w.path().relative()).toList();
        List<String> left = remove(paths, owner);
        String series = written.get(0).seriesInstanceUid();
        String text = left.isEmpty() ? "the " + written.size() + " derived instances written were removed"
                : (written.size() - left.size()) + " of the " + written.size() + " derived instances written were"
                + " removed; left in series " + series + ": " + String.join(", ", left);
        return before.isEmpty() ? text : text + "; series " + series + " still holds the " + before.size()
                + " instances it held before this run";
    }

    /** Removes stored objects (gone already counts as removed); returns "path (why)" of those that remain. */
    private List<String> remove(java.util.Collection<String> paths, Caller owner) {
        List<String> left = new ArrayList<>();
        for (String path : paths) {
            try {
                ingest.delete(StorePath.parse(path), Preconditions.NONE, owner);
            } catch (StoreException e) {
                if (e.kind() != StoreException.Kind.NOT_FOUND) {
                    LOG.log(Level.WARNING, "derived instance " + path + " could not be removed", e);
                    left.add(path + " (" + e.getMessage() + ")");
                }
            }
        }
        return left;
    }

    private static String result(List<Ingested> written, int replaced, List<String> notReplaced) {
        Ingested first = written.get(0);
        String path = first.path().relative();
        JsonArrayBuilder left = Json.createArrayBuilder();
        notReplaced.forEach(left::add);
        JsonObjectBuilder json = Json.createObjectBuilder()
                .add("SeriesInstanceUID", first.seriesInstanceUid())
                .add("StudyInstanceUID", first.studyInstanceUid())
                .add("derived", written.size())
                .add("first", path)
                .add("directory", path.substring(0, path.lastIndexOf('/') + 1))
                .add("replaced", replaced);
        if (!notReplaced.isEmpty()) {
            json.add("notRemoved", left); // earlier derived instances still beside the new ones
        }
        return json.build().toString();
    }
}
