package org.medjava.viewer.ui;

import java.awt.Toolkit;
import java.awt.event.ActionEvent;
import java.awt.event.InputEvent;
import java.awt.event.KeyEvent;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import javax.swing.AbstractAction;
import javax.swing.AbstractButton;
import javax.swing.Action;
import javax.swing.JButton;
import javax.swing.JToggleButton;
import javax.swing.KeyStroke;
import org.medjava.viewer.measure.Measurement;
import org.medjava.viewer.measure.Orientation;

/**
 * The view's reading tools as actions, menu items and toolbar buttons: invert, rotate 90° either way, flip
 * horizontally or vertically, back to upright; the Distance, Rectangle and Ellipse measurement tools. All are view
 * state of the {@link ImageView}: the image, its values and the measurements (in image coordinates) stay as they are.
 */
final class ViewTools {
    private final ImageView view;
    final Action invert;
    final Action rotateRight;
    final Action rotateLeft;
    final Action flipHorizontal;
    final Action flipVertical;
    final Action upright;

    ViewTools(ImageView view) {
        this.view = view;
        int menu = Toolkit.getDefaultToolkit().getMenuShortcutKeyMaskEx();
        invert = action("Invert grey levels", KeyStroke.getKeyStroke(KeyEvent.VK_I, menu),
                e -> view.setInverted(!view.inverted()));
        rotateRight = action("Rotate 90° right", KeyStroke.getKeyStroke(KeyEvent.VK_R, menu), e -> view.rotateRight());
        rotateLeft = action("Rotate 90° left", KeyStroke.getKeyStroke(KeyEvent.VK_R, menu | InputEvent.SHIFT_DOWN_MASK),
                e -> view.rotateLeft());
        flipHorizontal = action("Flip horizontally", KeyStroke.getKeyStroke(KeyEvent.VK_H,
                menu | InputEvent.SHIFT_DOWN_MASK), e -> view.flipHorizontal());
        flipVertical = action("Flip vertically", KeyStroke.getKeyStroke(KeyEvent.VK_V,
                menu | InputEvent.SHIFT_DOWN_MASK), e -> view.flipVertical());
        upright = action("Upright (no rotation or flip)", null, e -> view.setOrientation(Orientation.IDENTITY));
    }

    private static Action action(String name, KeyStroke key, Consumer<ActionEvent> body) {
        Action a = new AbstractAction(name) {
            private static final long serialVersionUID = 1L;

            @Override
            public void actionPerformed(ActionEvent e) {
                body.accept(e);
            }
        };
        if (key != null) {
            a.putValue(Action.ACCELERATOR_KEY, key);
        }
        return a;
    }

    /**
     * Toolbar toggles for the measurement tools (to join the other mouse tools' group). Named {@code tool-distance},
     * {@code tool-rectangle}, {@code tool-ellipse}.
     */
    List<AbstractButton> measureButtons() {
        return List.of(measureButton("Distance", Measurement.Kind.DISTANCE,
                        "Drag a line: its length in mm (pixels when the image has no pixel spacing)"),
                measureButton("Rect ROI", Measurement.Kind.RECTANGLE,
                        "Drag a rectangle: mean, SD, min, max in modality units (HU for CT), area, pixels"),
                measureButton("Ellipse ROI", Measurement.Kind.ELLIPSE,
                        "Drag an ellipse: mean, SD, min, max in modality units (HU for CT), area, pixels"));
    }

    private AbstractButton measureButton(String label, Measurement.Kind kind, String tip) {
        JToggleButton b = new JToggleButton(label);
        b.setName("tool-" + kind.name().toLowerCase(Locale.ROOT));
        b.setToolTipText(tip);
        b.addActionListener(e -> view.setMeasureTool(kind));
        return b;
    }

    /** Small toolbar buttons for the transforms. */
    List<AbstractButton> transformButtons() {
        return List.of(button("Invert", "invertButton", invert), button("⟲", "rotateLeftButton", rotateLeft),
                button("⟳", "rotateRightButton", rotateRight), button("⇋", "flipHorizontalButton", flipHorizontal),
                button("⇵", "flipVerticalButton", flipVertical));
    }

    private static AbstractButton button(String text, String name, Action action) {
        JButton b = new JButton(action);
        b.setText(text);
        b.setName(name);
        b.setToolTipText((String) action.getValue(Action.NAME));
        return b;
    }
}
