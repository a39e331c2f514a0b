package org.medjava.viewer.ui;

import java.awt.BorderLayout;
import java.awt.Toolkit;
import java.awt.datatransfer.StringSelection;
import java.awt.event.ActionEvent;
import java.awt.event.KeyEvent;
import javax.swing.AbstractAction;
import javax.swing.BorderFactory;
import javax.swing.DefaultListModel;
import javax.swing.JComponent;
import javax.swing.JLabel;
import javax.swing.JList;
import javax.swing.JMenuItem;
import javax.swing.JPanel;
import javax.swing.JPopupMenu;
import javax.swing.JScrollPane;
import javax.swing.KeyStroke;
import javax.swing.ListSelectionModel;
import org.medjava.viewer.measure.Measurements;

/**
 * The measurements of the open image as text, numbered as on the image: Ctrl-C (or the context menu) copies the
 * selected lines, or all of them when none is selected; Delete removes the selected ones. Event thread only.
 */
public final class MeasurementsPanel extends JPanel {
    private static final long serialVersionUID = 1L;

    private final transient Measurements measurements;
    private final DefaultListModel<String> lines = new DefaultListModel<>();
    private final JList<String> list = new JList<>(lines);

    public MeasurementsPanel(Measurements measurements) {
        super(new BorderLayout());
        this.measurements = measurements;
        setName("measurementsPanel");
        list.setName("measurements");
        list.setSelectionMode(ListSelectionModel.MULTIPLE_INTERVAL_SELECTION);
        JLabel hint = new JLabel("<html>Distance, Rectangle or Ellipse tool: drag on the image. Ctrl-C copies, "
                + "right-click for more.</html>");
        hint.setBorder(BorderFactory.createEmptyBorder(4, 6, 4, 6));
        add(hint, BorderLayout.NORTH);
        add(new JScrollPane(list), BorderLayout.CENTER);

        AbstractAction copy = action("Copy", e -> copy(false));
        AbstractAction copyAll = action("Copy all", e -> copy(true));
        AbstractAction delete = action("Delete", e -> deleteSelected());
        AbstractAction clear = action("Clear all", e -> measurements.clear());
        int menu = Toolkit.getDefaultToolkit().getMenuShortcutKeyMaskEx();
        list.getInputMap(JComponent.WHEN_FOCUSED).put(KeyStroke.getKeyStroke(KeyEvent.VK_C, menu), "copy");
        list.getActionMap().put("copy", javax.swing.TransferHandler.getCopyAction());
        list.getInputMap(JComponent.WHEN_FOCUSED).put(KeyStroke.getKeyStroke(KeyEvent.VK_DELETE, 0),
                "deleteMeasurements");
        list.getActionMap().put("deleteMeasurements", delete);
        JPopupMenu popup = new JPopupMenu();
        popup.setName("measurementsMenu");
        popup.add(item("copyMeasurement", copy));
        popup.add(item("copyAllMeasurements", copyAll));
        popup.addSeparator();
        popup.add(item("deleteMeasurement", delete));
        popup.add(item("clearMeasurements", clear));
        list.setComponentPopupMenu(popup);
        // the list's own copy (Ctrl-C, Ctrl-Insert, drag) exports the same text as the menu
        list.setTransferHandler(new javax.swing.TransferHandler() {
            private static final long serialVersionUID = 1L;

            @Override
            public int getSourceActions(JComponent c) {
                return COPY;
            }

            @Override
            protected java.awt.datatransfer.Transferable createTransferable(JComponent c) {
                return new StringSelection(text(false));
            }
        });
        measurements.addListener(this::refresh);
        refresh();
    }

    private static AbstractAction action(String name, java.util.function.Consumer<ActionEvent> body) {
        return new AbstractAction(name) {
            private static final long serialVersionUID = 1L;

            @Override
            public void actionPerformed(ActionEvent e) {
                body.accept(e);
            }
        };
    }

    private static JMenuItem item(String name, AbstractAction action) {
        JMenuItem item = new JMenuItem(action);
        item.setName(name);
        return item;
    }

    private void refresh() {
        lines.clear();
        for (int i = 0; i < measurements.size(); i++) {
            lines.addElement((i + 1) + ". " + measurements.result(i).line());
        }
    }

    /** The text Ctrl-C copies: the selected lines, or every line when none (or {@code all}) is selected. */
    public String text(boolean all) {
        if (all || list.isSelectionEmpty()) {
            return measurements.text();
        }
        StringBuilder b = new StringBuilder();
        for (int i : list.getSelectedIndices()) {
            b.append(lines.get(i)).append('\n');
        }
        return b.toString();
    }

    private void copy(boolean all) {
        String text = text(all);
        if (!text.isEmpty()) {
            Toolkit.getDefaultToolkit().getSystemClipboard().setContents(new StringSelection(text), null);
        }
    }

    private void deleteSelected() {
        int[] selected = list.getSelectedIndices();
        for (int k = selected.length - 1; k >= 0; k--) {
            measurements.remove(selected[k]);
        }
    }

    public JList<String> lines() {
        return list;
    }
}
