package org.medjava.viewer.ui;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import javax.swing.Action;
import javax.swing.JOptionPane;
import org.medjava.codec.dicom.DicomElements;
import org.medjava.codec.dicom.Window;
import org.medjava.viewer.filters.FilterCatalog;
import org.medjava.viewer.filters.FilterEntry;
import org.medjava.viewer.image.ImageDocument;
import org.medjava.viewer.image.ImageOrigin;
import org.medjava.viewer.model.SeriesJob;
import org.medjava.viewer.store.StoreClient;

/**
 * Applying the open image's filter chain to its whole series on the store: the Filters menu's action (enabled only
 * when the store can run it, saying why not otherwise), the confirmation, and following the job.
 */
final class SeriesJobFlow {
    private final ViewerController controller;
    private final FilterCatalog catalog;
    private final Consumer<String> open;
    private final Consumer<String> reveal;
    private final Action action = Actions.of("Apply the chain to the whole series on the store…", 0,
            e -> applyToSeries());

    /**
     * @param open   opens a store path (a result of the job)
     * @param reveal shows a store directory in the file tree
     */
    SeriesJobFlow(ViewerController controller, FilterCatalog catalog, Consumer<String> open, Consumer<String> reveal) {
        this.controller = controller;
        this.catalog = catalog;
        this.open = open;
        this.reveal = reveal;
    }

    Action action() {
        return action;
    }

    /** The open store DICOM instance's SeriesInstanceUID, or null when the open image is not one. */
    private String storeSeries() {
        ImageDocument doc = controller.document();
        if (doc == null || controller.client() == null || !(doc.origin() instanceof ImageOrigin.StoreFile)
                || !doc.image().isDicom()) {
            return null;
        }
        String uid = DicomElements.value(doc.image().dicom(), "SeriesInstanceUID");
        return uid.isBlank() ? null : uid;
    }

    /** Why the open image's chain cannot run over its series on the store now, or null. */
    private String problem() {
        if (storeSeries() == null) {
            return "open a DICOM image from the store (with a SeriesInstanceUID) first";
        }
        Set<String> storeFilters = new HashSet<>();
        catalog.entries().stream().filter(e -> e.origin() == FilterEntry.Origin.STORE && e.runnable())
                .forEach(e -> storeFilters.add(e.id()));
        ImageDocument doc = controller.document();
        return SeriesJob.problem(doc.state().chain(), doc.image().isGreyDicom(), storeFilters);
    }

    /** Enables the action or says why not; after every change of the document or of the store's filters. */
    void update() {
        String problem = problem();
        action.setEnabled(problem == null);
        action.putValue(Action.SHORT_DESCRIPTION, problem != null ? "Not now: " + problem
                : "The store applies the chain to every image of this series and keeps a new derived series");
    }

    private void applyToSeries() {
        StatusBar status = controller.status();
        String problem = problem();
        if (problem != null) {
            status.message("Cannot apply the chain to the series: " + problem);
            return;
        }
        StoreClient c = controller.client();
        ImageDocument doc = controller.document();
        String uid = storeSeries();
        var chain = doc.state().chain();
        var d = doc.image().dicom();
        Window window = doc.image().isGreyDicom() ? doc.window() : null;
        Map<String, String> params = SeriesJob.params(uid, chain, window);
        String description = DicomElements.value(d, "SeriesDescription");
        String what = "The store applies " + chain.describe() + " to every image of series "
                + DicomElements.value(d, "SeriesNumber") + (description.isBlank() ? "" : " (" + description + ")")
                + ", " + uid + (window == null ? "" : ", window " + params.get("window"))
                + ", and keeps the result as a new derived DICOM series of this study.";
        if (Dialogs.choose(controller.owner(), "Apply the chain to the whole series?", what + " It runs in the"
                + " background; you can cancel it.", JOptionPane.QUESTION_MESSAGE, "Apply to the series", "Cancel")
                != 0) {
            return;
        }
        status.message("Submitting the series job to the store…");
        controller.tasks().background(p -> c.submitJob(SeriesJob.KIND, params), job -> {
            status.message("Series job " + job.id() + " submitted");
            new SeriesJobDialog(controller.owner(), controller.tasks(), c, job, what, open::accept, reveal::accept,
                    status::message).follow();
        }, e -> {
            status.message("The series job was not started: " + e.getMessage());
            Dialogs.error(controller.owner(), "The series job was not started", e.getMessage());
        });
    }
}
