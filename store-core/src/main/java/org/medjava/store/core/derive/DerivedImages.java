package org.medjava.store.core.derive;

import com.pixelmed.dicom.TagFromName;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Collectors;
import org.medjava.codec.ImageDecodeException;
import org.medjava.codec.ImageFormat;
import org.medjava.codec.dicom.DerivationCode;
import org.medjava.codec.dicom.DerivedDicom;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.memory.DecodeBudget;
import org.medjava.store.core.memory.SmallReads;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.filter.Raster;
import org.medjava.filter.runtime.FilterInfo;
import org.medjava.filter.runtime.CallControl;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.filter.runtime.PluginInfo;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.ingest.Expected;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.ingest.IngestFailure;
import org.medjava.store.core.ingest.Ingested;
import org.medjava.store.core.render.RenderRequest;
import org.medjava.store.core.render.RenderService;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.StoredFile;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.storage.LocalCopy;

/**
 * Filtered images kept as derived DICOM, stored through the ingest door (landing where network-received objects
 * land). A grey source is filtered on its stored values and kept at its own depth (a CT stays a CT, an MR an MR,
 * with ImageType DERIVED\SECONDARY, rescale and geometry; other grey sources become Secondary Captures), the
 * request's window becoming the object's Window Center/Width; a colour source is windowed, filtered and kept as an
 * 8-bit Secondary Capture. Either references its source (Source Image Sequence, with the frame), and records the
 * window, the chain and the plugin id, version and SHA-256 of every filter in its Derivation Description, CID 7203
 * codes where one fits, and one Contributing Equipment Sequence item per step (Manufacturer MedJava, Model Name =
 * plugin id, Software Versions = version and SHA-256). Saving the same chain over images of one series gives one derived series: its
 * UID is a name-based UUID of the source series and chain (and, for colour, whose pixels were windowed, the window).
 */
public final class DerivedImages {

    private final ImageRepository images;
    private final RenderService renderer;
    private final FilterRegistry registry;
    private final Ingest ingest;

    public DerivedImages(ImageRepository images, RenderService renderer, FilterRegistry registry, Ingest ingest) {
        this.images = images;
        this.renderer = renderer;
        this.registry = registry;
        this.ingest = ingest;
    }

    /**
     * Renders {@code source} as {@code request} says, its filter calls under {@code control}, and stores the result
     * as derived DICOM, received from {@code caller}.
     *
     * @throws StoreException 400 for a bad chain or a source that is not DICOM, 404 for a missing source, 409 for a
     *     suspended filter, 422 for pixels that cannot be decoded or a filter that cannot serve them
     */
    public Ingested derive(StorePath source, RenderRequest request, CallControl control, Caller caller)
            throws IOException {
        Path staged = ingest.newStagingFile();
        try (OutputStream out = Files.newOutputStream(staged)) {
            write(source, request, out, new RenderService.Timings(), control);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(staged);
            throw e;
        }
        try {
            return ingest.receive(staged, Expected.NOTHING, caller);
        } catch (IngestFailure e) {
            throw new StoreException(StoreException.Kind.UNPROCESSABLE, "the derived object was refused: "
                    + e.getMessage(), e);
        }
    }

    /**
     * Writes the derived DICOM object {@link #derive} would store to {@code out} instead ({@code ?render=dicom}: a
     * client that windows the filtered stored values itself), noting the decode and filter times in {@code timings}.
     * Every call makes a new SOP Instance UID; the series UID is the one {@link #derive} gives.
     *
     * @throws StoreException as {@link #derive}, before anything is written to {@code out}
     */
    public void write(StorePath source, RenderRequest request, OutputStream out, RenderService.Timings timings,
                      CallControl control) throws IOException {
        renderer.validate(request);
        StoredFile file = images.stat(source).orElseThrow(() -> new StoreException(StoreException.Kind.NOT_FOUND,
                "no stored file " + source.relative()));
        if (!ImageFormat.DICOM.mediaType().equals(file.contentType())) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, source.relative() + " is "
                    + file.contentType() + ", not DICOM: a derived DICOM object needs a DICOM source to refer to");
        }
        // the decode budget is held until the derived object is written: the pixels live that long
        try (LocalCopy copy = images.localCopy(source);
             DecodeBudget.Permit permit = renderer.admit(copy.path(), request)) {
            write(source, copy.path(), request, out, timings, control);
        }
    }

    private void write(StorePath source, Path copy, RenderRequest request, OutputStream out,
                       RenderService.Timings timings, CallControl control) throws IOException {
        long t0 = System.nanoTime();
        DicomImage image;
        try {
            image = DicomCodec.read(SmallReads.readAllBytes(copy), request.frame(), renderer.maxPixels());
        } catch (ImageDecodeException e) {
            throw new StoreException(StoreException.Kind.UNPROCESSABLE, "cannot decode " + source.relative() + ": "
                    + e.getMessage(), e);
        }
        long t1 = System.nanoTime();
        // Grey: the filtered stored values at the source's depth, the window as the object's own. Colour: 8-bit RGB.
        // (Grey of more than 16 bits, unfiltered, is kept windowed to 8 bits as before.)
        RenderService.requireFilterable(image, request);
        boolean grey = image.isGray16();
        DicomImage filteredGrey = grey ? renderer.filterStoredValues(image, request, control) : null;
        Raster filteredColour = grey ? null : renderer.filter(RenderService.window(image, request), request,
                control);
        long t2 = System.nanoTime();

        String chain = describe(request.filters());
        String window = request.window() == null ? "the image's own" : request.window().center() + ","
                + request.window().width();
        DerivedDicom.Request derived;
        try {
            derived = DerivedDicom.from(image);
        } catch (IllegalArgumentException e) {
            throw new StoreException(StoreException.Kind.UNPROCESSABLE, e.getMessage(), e);
        }
        String sourceSeries = image.header().get(TagFromName.SeriesInstanceUID) == null ? ""
                : image.header().get(TagFromName.SeriesInstanceUID).getSingleStringValueOrEmptyString();
        derived.derivationDescription("MedJava store: window " + window + "; filters: "
                        + (chain.isEmpty() ? "none" : chain) + (request.region() == null ? ""
                        : "; region " + request.region()) + provenance(request.filters()))
                .derivationCodes(DerivationCode.forFilters(request.filters().stream()
                        .map(RenderRequest.FilterStep::filterId).toList()))
                .seriesDescription(chain.isEmpty() ? "MedJava: windowed" : "MedJava: " + chain)
                // A grey object keeps its values: the window is only its default presentation, so windows do not
                // split the series. Colour pixels were windowed: another window is other pixels.
                .seriesInstanceUid(seriesUid(sourceSeries, grey ? "stored values" : window, chain, request))
                .window(request.window())
                .contributors(contributors(request.filters()));
        if (grey) {
            derived.write(filteredGrey.grayRaster(), out);
        } else {
            derived.write(filteredColour, out);
        }
        timings.record(t1 - t0, t2 - t1, System.nanoTime() - t2);
    }

    static String describe(List<RenderRequest.FilterStep> steps) {
        return steps.stream().map(RenderRequest.FilterStep::toString).collect(Collectors.joining(" + "));
    }

    /** "; plugins: filter-blur 1.0 sha256:…" for every plugin whose filter ran, once each. */
    private String provenance(List<RenderRequest.FilterStep> steps) {
        String plugins = steps.stream().map(s -> registry.filter(s.filterId()).map(FilterInfo::pluginId))
                .flatMap(java.util.Optional::stream).distinct()
                .map(id -> registry.plugin(id).map(this::describe).orElse(id))
                .collect(Collectors.joining(", "));
        return plugins.isEmpty() ? "" : "; plugins: " + plugins;
    }

    /** One Contributing Equipment item per step: the plugin that ran it, its version and SHA-256, the step. */
    private List<DerivedDicom.Contributor> contributors(List<RenderRequest.FilterStep> steps) {
        return steps.stream().map(step -> {
            var plugin = registry.filter(step.filterId()).map(FilterInfo::pluginId).flatMap(registry::plugin);
            return new DerivedDicom.Contributor(plugin.map(PluginInfo::id).orElse(step.filterId()),
                    plugin.map(PluginInfo::version).orElse(""), plugin.map(PluginInfo::sha256).orElse(""),
                    step.toString());
        }).toList();
    }

    private String describe(PluginInfo p) {
        return p.id() + " " + p.version() + " sha256:" + p.sha256().toLowerCase(Locale.ROOT);
    }

    /** One derived series per source series, window, chain, region and implementation (a name-based UUID under 2.25). */
    static String seriesUid(String sourceSeries, String window, String chain, RenderRequest request) {
        String name = "medjava-derived|" + sourceSeries + "|" + window + "|" + chain + "|" + request.region() + "|"
                + request.implementation();
        UUID uuid = UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8));
        BigInteger value = new BigInteger(1, java.nio.ByteBuffer.allocate(16)
                .putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits()).array());
        return "2.25." + value;
    }
}
