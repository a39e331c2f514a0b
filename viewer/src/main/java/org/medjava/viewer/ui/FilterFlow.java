package org.medjava.viewer.ui;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import javax.swing.SwingUtilities;
import javax.swing.Timer;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.UnsupportedDataException;
import org.medjava.filter.runtime.ApplyRecord;
import org.medjava.filter.runtime.RegistryEvent;
import org.medjava.viewer.filters.FilterCatalog;
import org.medjava.viewer.filters.FilterEntry;
import org.medjava.viewer.image.DocState;
import org.medjava.viewer.image.FilterPreview;
import org.medjava.viewer.image.GreyRenderer;
import org.medjava.viewer.image.ImageDocument;
import org.medjava.viewer.image.OpenedImage;
import org.medjava.viewer.image.Rasters;
import org.medjava.viewer.model.BenchmarkCsv;
import org.medjava.viewer.model.FilterStep;

/**
 * Applying a filter from the Filters menu: asks its parameters (the last ones used offered again), runs it off the
 * event thread on the selected region or the whole image — on the stored values when the route allows, else on the
 * 8-bit pixels — and records it in the document's history. Benchmark mode appends each timing to the CSV. A plugin
 * the registry quarantines (a worker it ended or exhausted too often, a call that ignored its cancellation) is
 * reported once, naming it and the limit it hit, whether the user was applying or previewing it.
 */
final class FilterFlow {
    private static final ThreadLocal<ApplyRecord> LAST_TIMING = new ThreadLocal<>();

    private final ViewerController controller;
    private final FilterCatalog catalog;
    private final BenchmarkCsv csv;
    private final Supplier<Implementation> implementation;
    private final Map<String, Map<String, String>> lastParams = new HashMap<>();
    /** Plugins whose quarantine a dialog told of lately, and when (event thread). */
    private final Map<String, Long> quarantineTold = new HashMap<>();

    /**
     * @param csv            benchmark mode's timing file, or null
     * @param implementation the implementation chosen in the Filters menu
     */
    FilterFlow(ViewerController controller, FilterCatalog catalog, BenchmarkCsv csv,
               Supplier<Implementation> implementation) {
        this.controller = controller;
        this.catalog = catalog;
        this.csv = csv;
        this.implementation = implementation;
        catalog.registry().setTiming(true);
        catalog.registry().addListener(this::timed);
        catalog.registry().addListener(event -> {
            if (event instanceof RegistryEvent.PluginQuarantined q) {
                SwingUtilities.invokeLater(() -> quarantined(q));
            }
        });
    }

    /** Event thread. */
    void apply(FilterEntry entry) {
        StatusBar status = controller.status();
        ImageDocument d = controller.document();
        if (d == null) {
            status.message("Open an image first");
            return;
        }
        Region region = controller.view().selection();
        String target = region == null ? "the whole image" : "the selected region " + region.width() + "×"
                + region.height() + " at " + region.x() + "," + region.y();
        DocState shown = d.state();
        OpenedImage shownImage = d.image();
        Window shownWindow = d.window();
        Map<String, String> raw = new FilterParamsDialog(controller.owner(), entry.descriptor(),
                lastParams.getOrDefault(entry.id(), Map.of()), target, () -> FilterPreview.prepare(catalog.registry(),
                entry.id(), entry.descriptor().displayName(), shownImage, shown, shownWindow, region),
                implementation.get()).ask();
        if (raw == null) {
            return;
        }
        lastParams.put(entry.id(), raw);
        DocState before = d.state();
        OpenedImage image = d.image();
        Window window = d.window();
        Implementation chosen = implementation.get();
        String name = entry.descriptor().displayName();
        controller.tasks().foreground("Applying " + name, p -> filter(entry, raw, region, chosen, image, before,
                window), f -> {
            if (controller.document() != d || d.state() != before) {
                status.message("The image changed meanwhile; the result was dropped");
                return;
            }
            if (f.stored() != null) {
                d.appliedStored(f.stored(), f.step());
                if (!window.equals(d.window())) { // the window was dragged while the filter ran
                    controller.renderAgain();
                }
            } else {
                if (d.windowLive() && window != null && !window.equals(d.window())) {
                    d.setWindow(window); // the window the 8-bit input was rendered through is the one fixed
                }
                d.applied(f.pixels(), f.step());
            }
            status.message(name + " " + f.step().params() + (region == null ? "" : " on " + region)
                    + (f.step().storedValues() ? " on the stored values" : "")
                    + (f.timing() == null ? "" : String.format(Locale.ROOT,
                    ": %.1f ms (%s, %d×%d)%s", f.timing().millis(), f.timing().implementation().id(),
                    f.timing().width(), f.timing().height(), csv == null ? "" : ", logged to " + csv.file()))
                    + (f.route().note() == null ? "" : ". " + f.route().note()));
            controller.showFiltered(f.display());
        }, e -> failed(entry, e));
    }

    /** A filter's result: 8-bit {@code pixels} or {@code stored} values, with what to show and what was done. */
    private record Filtered(Raster pixels, GrayRaster16 stored, BufferedImage display, FilterStep step,
                            ApplyRecord timing, ImageDocument.Route route) {
    }

    /** Runs a filter on a worker thread: on the stored values when the route allows, else on 8-bit pixels. */
    private Filtered filter(FilterEntry entry, Map<String, String> raw, Region region, Implementation implementation,
                            OpenedImage image, DocState before, Window window) throws IOException {
        var registry = catalog.registry();
        boolean greySupport = image.isGreyDicom() && registry.supportsGray16(entry.id());
        ImageDocument.Route route = ImageDocument.route(image, before, window, entry.descriptor().displayName(),
                greySupport);
        String params = registry.validate(entry.id(), raw).toString();
        LAST_TIMING.remove();
        if (route.storedValues()) {
            GrayRaster16 out = registry.apply(entry.id(), ImageDocument.storedValues(image, before), region, raw,
                    implementation);
            ApplyRecord timing = LAST_TIMING.get();
            FilterStep step = new FilterStep(entry.id(), params, region, implementation,
                    catalog.provenance(entry.id(), timing), true);
            return new Filtered(null, out, GreyRenderer.render(image.dicom(), out, window), step, timing, route);
        }
        Raster out = registry.apply(entry.id(), ImageDocument.pixels(image, before, window), region, raw,
                implementation);
        ApplyRecord timing = LAST_TIMING.get();
        FilterStep step = new FilterStep(entry.id(), params, region, implementation,
                catalog.provenance(entry.id(), timing), false);
        return new Filtered(out, null, Rasters.toDisplay(out), step, timing, route);
    }

    private void failed(FilterEntry entry, Exception e) {
        String name = entry.descriptor().displayName();
        StatusBar status = controller.status();
        String unchanged = "\n\nThe image and its undo history are unchanged.";
        if (e instanceof UnsupportedDataException u) {
            status.message(name + " cannot filter this image: " + u.getMessage());
            Dialogs.error(controller.owner(), name + " cannot filter this image", u.getMessage() + unchanged);
            return;
        }
        status.message(name + " failed: " + e.getMessage());
        if (String.valueOf(e.getMessage()).contains("quarantined")) {
            quarantineTold.put(entry.pluginId(), System.nanoTime()); // this dialog says it: the event need not
        }
        Dialogs.error(controller.owner(), name + " failed", e.getMessage() + unchanged);
    }

    /**
     * A plugin was quarantined (event thread): the status bar says so at once; a dialog follows shortly unless the
     * failure of the filter call that caused it told the user already (that report may come just after the event).
     */
    private void quarantined(RegistryEvent.PluginQuarantined q) {
        String what = "Plugin " + q.pluginId() + " " + q.version() + " was stopped";
        controller.status().message(what + ": " + q.reason());
        Timer later = new Timer(750, e -> {
            Long told = quarantineTold.get(q.pluginId());
            if (told != null && System.nanoTime() - told < 10_000_000_000L) {
                return;
            }
            quarantineTold.put(q.pluginId(), System.nanoTime());
            Dialogs.error(controller.owner(), what, q.reason() + "\n\nIts filters stay off until the plugin is loaded"
                    + " again (the store installs another version, or the viewer starts again). The open image is unchanged.");
        });
        later.setRepeats(false);
        later.start();
    }

    /** Registry events on the filtering thread: benchmark mode's timing records. */
    private void timed(RegistryEvent event) {
        if (event instanceof RegistryEvent.FilterApplied applied) {
            LAST_TIMING.set(applied.record());
            if (csv != null && !FilterPreview.isPreviewThread()) { // previews are not applications
                try {
                    csv.append(applied.record());
                } catch (IOException e) {
                    SwingUtilities.invokeLater(() -> controller.status().message("Benchmark CSV " + csv.file() + ": "
                            + e.getMessage()));
                }
            }
        }
    }
}
