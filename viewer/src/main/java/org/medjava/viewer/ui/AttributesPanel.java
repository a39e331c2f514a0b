package org.medjava.viewer.ui;

import java.awt.BorderLayout;
import java.util.List;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTable;
import javax.swing.JTextField;
import javax.swing.RowFilter;
import javax.swing.event.DocumentEvent;
import javax.swing.event.DocumentListener;
import javax.swing.table.DefaultTableModel;
import javax.swing.table.TableRowSorter;
import org.medjava.codec.dicom.DicomElements;

/** The DICOM header of the open image as a table (tag, keyword, VR, value) with a filter field. */
final class AttributesPanel extends JPanel {
    private static final long serialVersionUID = 1L;

    private final DefaultTableModel model = new DefaultTableModel(new Object[] {"Tag", "Keyword", "VR", "Value"}, 0) {
        private static final long serialVersionUID = 1L;

        @Override
        public boolean isCellEditable(int row, int column) {
            return false;
        }
    };
    private final JTable table = new JTable(model);
    private final JTextField filter = new JTextField();
    private final TableRowSorter<DefaultTableModel> sorter = new TableRowSorter<>(model);

    AttributesPanel() {
        super(new BorderLayout(0, 4));
        table.setName("attributes");
        filter.setName("attributeFilter");
        filter.putClientProperty("JTextField.placeholderText", "filter attributes");
        table.setRowSorter(sorter);
        table.setAutoResizeMode(JTable.AUTO_RESIZE_LAST_COLUMN);
        fitColumns();
        filter.getDocument().addDocumentListener(new DocumentListener() {
            @Override
            public void insertUpdate(DocumentEvent e) {
                refilter();
            }

            @Override
            public void removeUpdate(DocumentEvent e) {
                refilter();
            }

            @Override
            public void changedUpdate(DocumentEvent e) {
                refilter();
            }
        });
        add(filter, BorderLayout.NORTH);
        add(new JScrollPane(table), BorderLayout.CENTER);
    }

    /**
     * Tag and VR always fit (their text has a fixed form), measured in the table's font so that a larger font or
     * another look and feel does not clip them; Keyword gets room for the usual keywords; Value takes the rest.
     */
    private void fitColumns() {
        java.awt.FontMetrics fm = table.getFontMetrics(table.getFont());
        int pad = 2 * table.getIntercellSpacing().width + 16; // the cell renderer's insets
        int tag = fm.stringWidth("(0000,0000)") + pad;
        int vr = Math.max(fm.stringWidth("VR"), fm.stringWidth("WW")) + pad;
        var columns = table.getColumnModel();
        fixed(columns.getColumn(0), tag);
        fixed(columns.getColumn(2), vr);
        columns.getColumn(1).setPreferredWidth(fm.stringWidth("SOPInstanceUID__") + pad);
        columns.getColumn(1).setMinWidth(60);
        columns.getColumn(3).setPreferredWidth(260);
        columns.getColumn(3).setMinWidth(60);
    }

    private static void fixed(javax.swing.table.TableColumn column, int width) {
        column.setMinWidth(width);
        column.setPreferredWidth(width);
        column.setMaxWidth(width);
    }

    /** The table, for tests. */
    JTable table() {
        return table;
    }

    void show(List<DicomElements.Element> elements) {
        model.setRowCount(0);
        for (DicomElements.Element e : elements) {
            model.addRow(new Object[] {e.tag(), e.keyword(), e.vr(), e.value()});
        }
    }

    int rows() {
        return model.getRowCount();
    }

    private void refilter() {
        String text = filter.getText().trim();
        sorter.setRowFilter(text.isEmpty() ? null : RowFilter.regexFilter("(?i)" + java.util.regex.Pattern.quote(text)));
    }
}
