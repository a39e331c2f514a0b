package org.medjava.store.core.jobs;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.render.RenderRequest;
import org.medjava.store.core.render.RenderService;
import org.medjava.store.core.storage.LocalCopy;

/**
 * Renders every instance of a series through a filter chain and stores the results beside it:
 * {@code derived/{SeriesInstanceUID}/{SOPInstanceUID}.{png|gif|jpeg}} (a re-run overwrites them, so a job taken over
 * from a dead node simply starts again). Parameters: {@code SeriesInstanceUID}, and the rendering parameters of
 * {@code GET /images/...?render=}: {@code render} (png), {@code filter} (steps separated by {@code |}),
 * {@code window}, {@code region}, {@code impl}. An export: 8-bit pictures as shown (windowed), not DICOM, outside the
 * patient hierarchy; {@link DeriveSeriesJob} keeps the filtered series as derived DICOM at the source's depth instead.
 */
public final class RenderSeriesJob implements JobKind {

    public static final String KIND = "render-series";

    private final DicomIndex index;
    private final ImageRepository images;
    private final RenderService renderer;
    private final Ingest ingest;

    public RenderSeriesJob(DicomIndex index, ImageRepository images, RenderService renderer, Ingest ingest) {
        this.index = index;
        this.images = images;
        this.renderer = renderer;
        this.ingest = ingest;
    }

    @Override
    public String run(Map<String, String> params, Progress progress, Caller owner) throws Exception {
        String series = params.get("SeriesInstanceUID");
        if (series == null || series.isBlank()) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "render-series needs SeriesInstanceUID");
        }
        Map<String, List<String>> query = new java.util.HashMap<>();
        for (String key : List.of("render", "filter", "window", "region", "impl")) {
            if (params.containsKey(key)) {
                query.put(key, List.of(params.get(key)));
            }
        }
        RenderRequest request = RenderRequest.parse(query);
        List<InstanceSummary> instances = index.instances(series);
        if (instances.isEmpty()) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "no instances of series " + series);
        }
        String extension = request.format().name().toLowerCase(java.util.Locale.ROOT);
        List<String> written = new ArrayList<>();
        progress.update(0, instances.size());
        for (InstanceSummary i : instances) {
            byte[] image;
            try (LocalCopy copy = images.localCopy(StorePath.parse(i.path()))) {
                image = renderer.render(copy.path(), true, request, RenderService.forJob());
            }
            StorePath out = StorePath.parse("derived/" + series + "/" + i.sopInstanceUid() + "." + extension);
            ingest.put(out, new ByteArrayInputStream(image), image.length, null, Preconditions.NONE, owner);
            written.add(out.relative());
            progress.update(written.size(), instances.size());
        }
        return "{\"rendered\":" + written.size() + ",\"directory\":\"derived/" + series + "/\"}";
    }
}
