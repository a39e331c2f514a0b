package org.medjava.viewer.ui;

import java.awt.BorderLayout;
import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.awt.Insets;
import java.awt.event.KeyEvent;
import java.awt.event.MouseAdapter;
import java.awt.event.MouseEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import javax.swing.AbstractAction;
import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JComboBox;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTextField;
import javax.swing.JTree;
import javax.swing.KeyStroke;
import javax.swing.SwingUtilities;
import javax.swing.event.TreeExpansionEvent;
import javax.swing.event.TreeWillExpandListener;
import javax.swing.tree.DefaultMutableTreeNode;
import javax.swing.tree.DefaultTreeModel;
import javax.swing.tree.TreePath;
import org.medjava.viewer.store.IndexRows;
import org.medjava.viewer.store.StoreClient;

/**
 * The store's DICOM index grouped patient → study → series → instance, with a search by patient name or ID, study
 * date (YYYYMMDD, or a range YYYYMMDD-YYYYMMDD, open at either end) and modality. Series and instances load when
 * expanded. Double-click (or Enter on) a series to open it as a stack at its first image, an instance to open it;
 * on a patient or a study it expands or collapses the node.
 */
final class DicomSearchPanel extends JPanel {
    private static final long serialVersionUID = 1L;
    private static final String LOADING = "loading…";

    private final JTextField patient = new JTextField(12);
    private final JTextField date = new JTextField(10);
    private final JComboBox<String> modality = new JComboBox<>(new String[] {"any", "CT", "MR", "CR", "DX", "US",
        "OT", "SC", "NM", "PT", "XA", "RTDOSE"});
    private final JTree tree = new JTree(new DefaultTreeModel(new DefaultMutableTreeNode("search the index")));
    private final JLabel info = new JLabel(" ");
    /** Searches started (event thread): only the latest one's answer is shown. */
    private int searches;
    private final transient Tasks tasks;
    private final transient Consumer<String> open;
    private final transient BiConsumer<String, String> openSeries;
    private transient StoreClient client;

    private record SeriesItem(String studyInstanceUid, IndexRows.Series series) {
        @Override
        public String toString() {
            IndexRows.Series s = series;
            return (s.seriesNumber() == null ? "" : "#" + s.seriesNumber() + " ") + s.modality() + " "
                    + s.seriesDescription() + " (" + s.instances() + ")";
        }
    }

    private record InstanceItem(IndexRows.Instance instance) {
        @Override
        public String toString() {
            IndexRows.Instance i = instance;
            String name = i.path().substring(i.path().lastIndexOf('/') + 1);
            return (i.instanceNumber() == null ? "" : i.instanceNumber() + ": ") + name
                    + (i.columns() == null ? "" : "  " + i.columns() + "×" + i.rows())
                    + (i.frames() != null && i.frames() > 1 ? ", " + i.frames() + " frames" : "");
        }
    }

    private record StudyItem(IndexRows.Study study) {
        @Override
        public String toString() {
            IndexRows.Study s = study;
            return (s.studyDate().isEmpty() ? "(no date)" : s.studyDate()) + " " + String.join("/", s.modalities())
                    + (s.studyDescription().isEmpty() ? "" : " " + s.studyDescription())
                    + " (" + s.series() + " series)";
        }
    }

    /**
     * @param open       opens an instance by its store path
     * @param openSeries opens a series (study UID, series UID) as a stack
     */
    DicomSearchPanel(Tasks tasks, Consumer<String> open, BiConsumer<String, String> openSeries) {
        super(new BorderLayout());
        this.tasks = tasks;
        this.open = open;
        this.openSeries = openSeries;
        patient.setName("searchPatient");
        date.setName("searchDate");
        modality.setName("searchModality");
        tree.setName("dicomTree");
        patient.setToolTipText("Patient name or ID; * and ? are wildcards, case is ignored");
        date.setToolTipText("Study date: YYYYMMDD, or a range YYYYMMDD-YYYYMMDD (either end may be left open)");
        JButton search = new JButton("Search");
        search.setName("search");
        search.addActionListener(e -> search());
        patient.addActionListener(e -> search());
        date.addActionListener(e -> search());

        JPanel form = new JPanel(new GridBagLayout());
        form.setBorder(BorderFactory.createEmptyBorder(6, 6, 6, 6));
        add(form, 0, "Patient", patient);
        add(form, 1, "Study date", date);
        add(form, 2, "Modality", modality);
        GridBagConstraints c = new GridBagConstraints();
        c.gridx = 1;
        c.gridy = 3;
        c.anchor = GridBagConstraints.EAST;
        form.add(search, c);
        tree.setRootVisible(false);
        tree.setShowsRootHandles(true);
        tree.addTreeWillExpandListener(new TreeWillExpandListener() {
            @Override
            public void treeWillExpand(TreeExpansionEvent event) {
                expand((DefaultMutableTreeNode) event.getPath().getLastPathComponent());
            }

            @Override
            public void treeWillCollapse(TreeExpansionEvent event) {
            }
        });
        // a double-click opens a series or an instance; JTree's own double-click only toggles, so it is done here
        tree.setToggleClickCount(0);
        tree.addMouseListener(new MouseAdapter() {
            @Override
            public void mouseClicked(MouseEvent e) {
                TreePath p = tree.getPathForLocation(e.getX(), e.getY());
                if (e.getClickCount() == 2 && SwingUtilities.isLeftMouseButton(e) && p != null) {
                    activate(p);
                }
            }
        });
        tree.getInputMap().put(KeyStroke.getKeyStroke(KeyEvent.VK_ENTER, 0), "activate");
        tree.getActionMap().put("activate", new AbstractAction() {
            private static final long serialVersionUID = 1L;

            @Override
            public void actionPerformed(java.awt.event.ActionEvent e) {
                TreePath p = tree.getSelectionPath();
                if (p != null) {
                    activate(p);
                }
            }
        });
        add(form, BorderLayout.NORTH);
        add(new JScrollPane(tree), BorderLayout.CENTER);
        add(info, BorderLayout.SOUTH);
    }

    /** A series opens as a stack, an instance opens; a patient or a study expands or collapses. */
    private void activate(TreePath path) {
        Object item = ((DefaultMutableTreeNode) path.getLastPathComponent()).getUserObject();
        if (item instanceof SeriesItem series) {
            openSeries.accept(series.studyInstanceUid(), series.series().seriesInstanceUid());
        } else if (item instanceof InstanceItem instance) {
            open.accept(instance.instance().path());
        } else if (tree.isExpanded(path)) {
            tree.collapsePath(path);
        } else {
            tree.expandPath(path);
        }
    }

    /** The row showing series {@code seriesInstanceUid}, or -1 (tests). Event thread. */
    int rowOfSeries(String seriesInstanceUid) {
        for (int row = 0; row < tree.getRowCount(); row++) {
            if (((DefaultMutableTreeNode) tree.getPathForRow(row).getLastPathComponent()).getUserObject()
                    instanceof SeriesItem s && s.series().seriesInstanceUid().equals(seriesInstanceUid)) {
                return row;
            }
        }
        return -1;
    }

    private static void add(JPanel form, int y, String label, java.awt.Component field) {
        GridBagConstraints c = new GridBagConstraints();
        c.gridx = 0;
        c.gridy = y;
        c.anchor = GridBagConstraints.WEST;
        c.insets = new Insets(2, 0, 2, 6);
        form.add(new JLabel(label), c);
        c.gridx = 1;
        c.weightx = 1;
        c.fill = GridBagConstraints.HORIZONTAL;
        form.add(field, c);
    }

    void connect(StoreClient storeClient) {
        this.client = storeClient;
        search();
    }

    /** The index queries for the form: one by name and one by ID when a patient text is given. */
    static List<Map<String, String>> queries(String patientText, String dateText, String modalityText) {
        Map<String, String> common = new LinkedHashMap<>();
        String d = dateText == null ? "" : dateText.trim();
        if (!d.isEmpty()) {
            if (!d.matches("\\d{8}|\\d{8}-|-\\d{8}|\\d{8}-\\d{8}")) {
                throw new IllegalArgumentException("study date must be YYYYMMDD or a range YYYYMMDD-YYYYMMDD, got \""
                        + d + "\"");
            }
            common.put("StudyDate", d);
        }
        if (modalityText != null && !modalityText.isBlank() && !modalityText.equals("any")) {
            common.put("ModalitiesInStudy", modalityText.trim());
        }
        String p = patientText == null ? "" : patientText.trim();
        if (p.isEmpty()) {
            return List.of(common);
        }
        String pattern = p.contains("*") || p.contains("?") ? p : "*" + p + "*";
        Map<String, String> byName = new LinkedHashMap<>(common);
        byName.put("PatientName", pattern);
        byName.put("fuzzymatching", "true");
        Map<String, String> byId = new LinkedHashMap<>(common);
        byId.put("PatientID", pattern);
        return List.of(byName, byId);
    }

    private void search() {
        if (client == null) {
            info.setText("Connect to a store first.");
            return;
        }
        List<Map<String, String>> queries;
        try {
            queries = queries(patient.getText(), date.getText(), (String) modality.getSelectedItem());
        } catch (IllegalArgumentException e) {
            info.setText(e.getMessage());
            return;
        }
        StoreClient c = client;
        int generation = ++searches;
        info.setText("searching…");
        tasks.background(p -> {
            Map<String, IndexRows.Study> studies = new LinkedHashMap<>();
            for (Map<String, String> q : queries) {
                c.studies(q).forEach(s -> studies.putIfAbsent(s.studyInstanceUid(), s));
            }
            return new ArrayList<>(studies.values());
        }, studies -> {
            if (generation == searches) { // an earlier search answering late must not replace a later one's results
                show(studies);
            }
        }, e -> info.setText(e.getMessage()));
    }

    private void show(List<IndexRows.Study> studies) {
        DefaultMutableTreeNode root = new DefaultMutableTreeNode("results");
        Map<String, DefaultMutableTreeNode> patients = new LinkedHashMap<>();
        for (IndexRows.Study s : studies) {
            String key = s.patientId() + "\u0000" + s.patientName();
            DefaultMutableTreeNode patientNode = patients.computeIfAbsent(key, k -> {
                DefaultMutableTreeNode n = new DefaultMutableTreeNode((s.patientName().isEmpty() ? "(no name)"
                        : s.patientName().replace('^', ' ')) + "  [" + s.patientId() + "]");
                root.add(n);
                return n;
            });
            DefaultMutableTreeNode studyNode = new DefaultMutableTreeNode(new StudyItem(s));
            studyNode.add(new DefaultMutableTreeNode(LOADING));
            patientNode.add(studyNode);
        }
        tree.setModel(new DefaultTreeModel(root));
        for (int row = 0; row < tree.getRowCount(); row++) {
            tree.expandRow(row); // patients open, studies closed
            row += ((DefaultMutableTreeNode) tree.getPathForRow(row).getLastPathComponent()).getChildCount();
        }
        info.setText(studies.size() + (studies.size() == 1 ? " study" : " studies") + " of "
                + patients.size() + (patients.size() == 1 ? " patient" : " patients"));
    }

    private void expand(DefaultMutableTreeNode node) {
        if (node.getChildCount() != 1 || !LOADING.equals(((DefaultMutableTreeNode) node.getChildAt(0))
                .getUserObject())) {
            return;
        }
        StoreClient c = client;
        if (node.getUserObject() instanceof StudyItem study) {
            tasks.background(p -> c.series(study.study().studyInstanceUid()), series -> {
                node.removeAllChildren();
                for (IndexRows.Series s : series) {
                    DefaultMutableTreeNode n = new DefaultMutableTreeNode(new SeriesItem(
                            study.study().studyInstanceUid(), s));
                    n.add(new DefaultMutableTreeNode(LOADING));
                    node.add(n);
                }
                ((DefaultTreeModel) tree.getModel()).nodeStructureChanged(node);
                tree.expandPath(new TreePath(node.getPath()));
            }, e -> info.setText(e.getMessage()));
        } else if (node.getUserObject() instanceof SeriesItem series) {
            tasks.background(p -> c.instances(series.series().seriesInstanceUid()), instances -> {
                node.removeAllChildren();
                instances.forEach(i -> node.add(new DefaultMutableTreeNode(new InstanceItem(i), false)));
                ((DefaultTreeModel) tree.getModel()).nodeStructureChanged(node);
                tree.expandPath(new TreePath(node.getPath()));
            }, e -> info.setText(e.getMessage()));
        }
    }
}
