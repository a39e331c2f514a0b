package org.medjava.viewer.ui;

import java.awt.Component;
import javax.swing.JTabbedPane;
import javax.swing.SwingUtilities;
import org.medjava.viewer.image.ImageDocument;
import org.medjava.viewer.measure.Measurers;
import org.medjava.viewer.model.UserPresets;

/**
 * Issue 19's reading tools wired into the main window: the Distance/Rect ROI/Ellipse ROI tools and the measurements
 * list (a side panel), invert/rotate/flip (View menu, tool bar), and the preset box by modality with the user's own
 * presets, keys 1–9 and "custom" after a drag.
 */
final class ReadingTools {

    ReadingTools(ViewerFrame frame, WindowControls windowControls) {
        ViewerController controller = frame.controller();
        ImageView view = controller.view();
        StatusBar status = controller.status();

        view.setMeasurerSource(() -> Measurers.of(controller.document()));
        MeasurementsPanel panel = new MeasurementsPanel(view.measurements());
        frame.addSidePanel("Measurements", panel);
        controller.addListener(new SliceMeasurements(view.measurements())); // ROIs per slice of a stack
        view.onMeasured(result -> {
            status.message(result.line());
            if (SwingUtilities.getAncestorOfClass(JTabbedPane.class, panel) instanceof JTabbedPane tabs) {
                tabs.setSelectedComponent(tabOf(tabs, panel)); // the reader sees the new line
            }
        });

        ViewTools tools = new ViewTools(view);
        tools.measureButtons().forEach(frame::addTool);
        frame.addToolbarGroup(null, tools.transformButtons().toArray(javax.swing.JComponent[]::new));
        String menu = ViewerMenuBar.VIEW;
        frame.menuBar().addSeparator(menu);
        frame.addMenuItem(menu, "invertItem", tools.invert);
        frame.addMenuItem(menu, "rotateRightItem", tools.rotateRight);
        frame.addMenuItem(menu, "rotateLeftItem", tools.rotateLeft);
        frame.addMenuItem(menu, "flipHorizontalItem", tools.flipHorizontal);
        frame.addMenuItem(menu, "flipVerticalItem", tools.flipVertical);
        frame.addMenuItem(menu, "uprightItem", tools.upright);

        PresetBox presets = new PresetBox(windowControls.presets(), controller.tasks(), UserPresets.standard(),
                status::message);
        windowControls.setModalityPresets(presets::addModalityPresets);
        presets.bindDigits(view);
        view.onWindowDragged(() -> {
            ImageDocument doc = controller.document();
            if (doc != null && doc.windowLive() && doc.window() != null) {
                presets.showCustom(doc.window());
            }
        });
        frame.menuBar().addSeparator(menu);
        frame.addMenuItem(menu, "savePresetItem", presets.saveAction(frame, controller::document));
        frame.addMenuItem(menu, "deletePresetItem", presets.deleteAction(frame, controller::document));
    }

    private static Component tabOf(JTabbedPane tabs, Component inside) {
        for (int i = 0; i < tabs.getTabCount(); i++) {
            Component c = tabs.getComponentAt(i);
            if (c == inside || SwingUtilities.isDescendingFrom(inside, c)) {
                return c;
            }
        }
        return tabs.getSelectedComponent();
    }
}
