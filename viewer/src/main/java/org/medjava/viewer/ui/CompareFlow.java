package org.medjava.viewer.ui;

import java.awt.event.KeyEvent;
import javax.swing.Action;
import javax.swing.JComponent;
import javax.swing.JToggleButton;
import javax.swing.KeyStroke;
import org.medjava.viewer.image.ImageDocument;

/**
 * Before/after and side by side in the main window: View menu items, two tool bar toggles, the B key while the image
 * has the focus (not window-wide: B is a letter people type into search fields), and the source kept in step with
 * the document (a new image, a filter, undo, a window change). Event thread.
 */
final class CompareFlow {
    private final CompareView compare;
    private final ViewerController controller;
    private final JToggleButton before = new JToggleButton("Before");
    private final JToggleButton sideBySide = new JToggleButton("Side by side");

    CompareFlow(ViewerFrame frame, CompareView compare) {
        this.compare = compare;
        this.controller = frame.controller();
        Action toggleBefore = Actions.of("Before/after (B)", 0, e -> compare.toggleBefore());
        Action toggleSide = Actions.of("Side by side", 0, e -> compare.toggleSideBySide());
        frame.addMenuItem(ViewerMenuBar.VIEW, "beforeAfterItem", toggleBefore);
        frame.addMenuItem(ViewerMenuBar.VIEW, "sideBySideItem", toggleSide);
        before.setName("beforeToggle");
        before.setToolTipText("Show the source of the filter chain instead of the result (B, with the image focused)");
        before.addActionListener(e -> compare.setMode(before.isSelected() ? CompareView.Mode.BEFORE
                : CompareView.Mode.RESULT));
        sideBySide.setName("sideBySideToggle");
        sideBySide.setToolTipText("The source on the left, the result on the right, with one zoom, pan and window");
        sideBySide.addActionListener(e -> compare.setMode(sideBySide.isSelected() ? CompareView.Mode.SIDE_BY_SIDE
                : CompareView.Mode.RESULT));
        frame.addToolbarGroup(null, before, sideBySide);
        compare.getInputMap(JComponent.WHEN_ANCESTOR_OF_FOCUSED_COMPONENT)
                .put(KeyStroke.getKeyStroke(KeyEvent.VK_B, 0), "toggleBefore");
        compare.getActionMap().put("toggleBefore", toggleBefore);
        compare.onModeChange(mode -> {
            before.setSelected(mode == CompareView.Mode.BEFORE);
            sideBySide.setSelected(mode == CompareView.Mode.SIDE_BY_SIDE);
            controller.status().message(switch (mode) {
                case BEFORE -> "Before: the source of the filter chain (B for the result)";
                case SIDE_BY_SIDE -> "Side by side: the source on the left, the result on the right";
                case RESULT -> "The result of the filter chain";
            });
        });
        controller.addListener(new ViewerController.Listener() {
            @Override
            public void opened(ImageDocument doc) {
                compare.documentChanged(doc);
            }

            @Override
            public void changed() {
                compare.documentChanged(controller.document());
            }

            @Override
            public void windowChanged() {
                compare.documentChanged(controller.document());
            }
        });
        frame.onClose(compare::shutdown);
    }
}
