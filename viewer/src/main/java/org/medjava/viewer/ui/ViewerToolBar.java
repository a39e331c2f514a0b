package org.medjava.viewer.ui;

import java.awt.event.ActionEvent;
import java.util.Locale;
import java.util.function.Consumer;
import javax.swing.Action;
import javax.swing.ButtonGroup;
import javax.swing.JButton;
import javax.swing.JComponent;
import javax.swing.JLabel;
import javax.swing.JToggleButton;
import javax.swing.JToolBar;

/** The main window's tool bar: the mouse tools first, then groups of buttons and controls that features add. */
final class ViewerToolBar extends JToolBar {
    private static final long serialVersionUID = 1L;

    ViewerToolBar(ImageView view) {
        setFloatable(false);
        ButtonGroup tools = new ButtonGroup();
        for (ImageView.Tool t : ImageView.Tool.values()) {
            String label = switch (t) {
                case WINDOW_LEVEL -> "W/L";
                case PAN -> "Pan";
                case SELECT -> "Select";
            };
            JToggleButton b = new JToggleButton(label, t == view.tool());
            b.setName("tool-" + t.name().toLowerCase(Locale.ROOT));
            b.setToolTipText(switch (t) {
                case WINDOW_LEVEL -> "Drag: right/left widens/narrows the window, down/up raises/lowers the level";
                case PAN -> "Drag to move the image (the right button always pans)";
                case SELECT -> "Drag a rectangle: filters then apply to it only";
            });
            b.addActionListener(e -> view.setTool(t));
            tools.add(b);
            add(b);
        }
    }

    /** Appends a button named {@code name} showing {@code label} (not the action's longer menu name). */
    JButton addButton(String label, String name, Action action) {
        JButton b = new JButton(action);
        b.setText(label);
        b.setName(name);
        add(b);
        return b;
    }

    JButton addButton(String label, String name, Consumer<ActionEvent> body) {
        return addButton(label, name, Actions.of(label, 0, body));
    }

    /** Appends a separator, then {@code label} (when not null) and {@code components}: one group of controls. */
    void addGroup(String label, JComponent... components) {
        addSeparator();
        if (label != null) {
            add(new JLabel(label));
        }
        for (JComponent c : components) {
            add(c);
        }
    }
}
