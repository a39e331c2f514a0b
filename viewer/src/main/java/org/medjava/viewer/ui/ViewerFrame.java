package org.medjava.viewer.ui;

import java.awt.BorderLayout;
import java.awt.Dimension;
import java.awt.event.KeyEvent;
import java.awt.event.WindowAdapter;
import java.awt.event.WindowEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.swing.Action;
import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JComponent;
import javax.swing.JFrame;
import javax.swing.JMenuItem;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JSplitPane;
import javax.swing.JTabbedPane;
import javax.swing.KeyStroke;
import javax.swing.SwingUtilities;
import org.medjava.viewer.filters.FilterCatalog;
import org.medjava.viewer.image.ImageDocument;
import org.medjava.viewer.model.BenchmarkCsv;
import org.medjava.viewer.model.RecentServers;
import org.medjava.viewer.store.StoreClient;

/**
 * The viewer's main window: the store browser on the left, the image in the middle, the DICOM attributes on the
 * right, the status bar below. It only lays the parts out and wires them: the {@link ViewerController} owns the
 * open document, the flows ({@link ConnectFlow}, {@link OpenFlow}, {@link FilterFlow}, {@link SeriesJobFlow},
 * {@link UploadFlow}, {@link SaveFlow}) do the work, off the event thread through {@link Tasks}. Features plug in
 * through the "extension points" below (see notes/viewer-split-api.md).
 */
public final class ViewerFrame extends JFrame {
    private static final long serialVersionUID = 1L;

    private final transient FilterCatalog catalog;
    private final StatusBar status = new StatusBar();
    private final transient Tasks tasks = new Tasks(status);
    private final ImageView view = new ImageView();
    private final CompareView compare = new CompareView(view, tasks);
    private final AttributesPanel attributes = new AttributesPanel();
    private final ThumbnailPanel thumbnail = new ThumbnailPanel(tasks);
    private final transient ViewerController controller = new ViewerController(this, view, attributes, status,
            tasks);
    private final ViewerMenuBar menus = new ViewerMenuBar();
    private final ViewerToolBar toolbar = new ViewerToolBar(view);
    private final JTabbedPane browser = new JTabbedPane();
    private final JPanel imageArea = new JPanel(new BorderLayout());
    private final JSplitPane right;
    private JTabbedPane sidePanels;
    private final transient WindowKeys keys = new WindowKeys(this, status::message);
    private final transient List<Runnable> onClose = new ArrayList<>();
    private final transient ConnectFlow connect;
    private final transient OpenFlow open = new OpenFlow(controller);
    private final StoreTree storeTree;
    private final DicomSearchPanel dicomSearch;
    private final FiltersMenu filtersMenu;
    private final transient SeriesView seriesView;

    /**
     * The settings it needs, not the command line's {@code ViewerOptions}, which live above the window.
     *
     * @param benchmarkCsv     benchmark mode's CSV file, or null outside benchmark mode
     * @param manifestInterval how often to check the store's filter manifest
     */
    public ViewerFrame(FilterCatalog catalog, Path benchmarkCsv, Duration manifestInterval) {
        super("MedJava Viewer");
        this.catalog = catalog;
        BenchmarkCsv csv = benchmarkCsv != null ? new BenchmarkCsv(benchmarkCsv) : null;
        setName("viewer");
        setDefaultCloseOperation(JFrame.DISPOSE_ON_CLOSE);
        connect = new ConnectFlow(controller, catalog, RecentServers.standard(), manifestInterval, csv);
        storeTree = new StoreTree(tasks, open::openStore, status::message, thumbnail);
        dicomSearch = new DicomSearchPanel(tasks, open::openStore, this::openSeries);
        connect.onConnect(storeTree::connect);
        connect.onConnect(dicomSearch::connect);
        FilterFlow filters = new FilterFlow(controller, catalog, csv, this::filterImplementation);
        SeriesJobFlow seriesJob = new SeriesJobFlow(controller, catalog, open::openStore, storeTree::reveal);
        filtersMenu = new FiltersMenu(catalog, filters::apply, seriesJob.action());
        UploadFlow uploads = new UploadFlow(controller, connect, storeTree::reveal);
        SaveFlow save = new SaveFlow(controller);
        catalog.addListener(() -> SwingUtilities.invokeLater(() -> {
            filtersMenu.rebuild();
            seriesJob.update(); // the store's filters may have changed
        }));
        WindowControls windowControls = new WindowControls(controller);
        Overlays overlays = new Overlays(controller);
        seriesView = new SeriesView(controller, overlays);
        addImagePanel(BorderLayout.SOUTH, seriesView.panel());
        onClose(seriesView::shutdown);

        Action undo = Actions.of("Undo", KeyEvent.VK_Z, e -> controller.undo());
        Action redo = Actions.of("Redo", KeyEvent.VK_Y, e -> controller.redo());
        Action upload = Actions.of("Upload to store…", KeyEvent.VK_U, e -> uploads.upload());
        Action saveAs = Actions.of("Save as…", KeyEvent.VK_S, e -> save.saveLocal());
        controller.addListener(new ViewerController.Listener() {
            @Override
            public void changed() {
                ImageDocument doc = controller.document();
                undo.setEnabled(doc != null && doc.history().canUndo());
                redo.setEnabled(doc != null && doc.history().canRedo());
                upload.setEnabled(doc != null);
                saveAs.setEnabled(doc != null);
                String why = doc == null ? "open an image first" : null;
                upload.putValue(Action.SHORT_DESCRIPTION, why);
                saveAs.putValue(Action.SHORT_DESCRIPTION, why);
                seriesJob.update();
            }
        });

        String file = ViewerMenuBar.FILE;
        addMenuItem(file, "connect", Actions.of("Connect to store…", KeyEvent.VK_K, e -> askConnect(null, null)));
        addMenuItem(file, "openLocal", Actions.of("Open file…", KeyEvent.VK_O, e -> open.chooseLocal()));
        menus.addSeparator(file);
        addMenuItem(file, "uploadItem", upload);
        addMenuItem(file, "saveItem", saveAs);
        menus.addSeparator(file);
        addMenuItem(file, "exit", Actions.of("Exit", KeyEvent.VK_Q, e -> dispose()));
        addMenuItem(ViewerMenuBar.EDIT, "undoItem", undo);
        addMenuItem(ViewerMenuBar.EDIT, "redoItem", redo);
        addMenuItem(ViewerMenuBar.EDIT, "clearSelection", Actions.of("Clear selection", 0,
                e -> view.setSelection(null)));
        String viewMenu = ViewerMenuBar.VIEW;
        addMenuItem(viewMenu, "fit", Actions.of("Fit to window", KeyEvent.VK_0, e -> view.fit()));
        addMenuItem(viewMenu, "actualSize", Actions.of("Actual size (1:1)", KeyEvent.VK_1, e -> view.actualSize()));
        addMenuItem(viewMenu, "zoomIn", Actions.of("Zoom in", KeyEvent.VK_EQUALS, e -> view.zoom(1.25)));
        addMenuItem(viewMenu, "zoomOut", Actions.of("Zoom out", KeyEvent.VK_MINUS, e -> view.zoom(0.8)));
        menus.add(filtersMenu);
        setJMenuBar(menus);

        toolbar.addSeparator();
        toolbar.addButton("Fit", "fitButton", e -> view.fit());
        toolbar.addButton("1:1", "actualSizeButton", e -> view.actualSize());
        toolbar.addSeparator();
        toolbar.addButton("Undo", "undoButton", undo);
        toolbar.addButton("Redo", "redoButton", redo);
        toolbar.addGroup("Window ", windowControls.presets());
        toolbar.addGroup("Frame ", windowControls.frameSpinner(), windowControls.frameCount());
        toolbar.addSeparator();
        toolbar.addButton("Upload", "uploadButton", upload);

        browser.setName("browserTabs");
        JPanel files = new JPanel(new BorderLayout());
        files.add(new JScrollPane(storeTree), BorderLayout.CENTER);
        files.add(thumbnail, BorderLayout.SOUTH);
        browser.addTab("Files", files);
        browser.addTab("DICOM", dicomSearch);
        browser.setPreferredSize(new Dimension(320, 600));
        attributes.setPreferredSize(new Dimension(400, 600));
        attributes.setMinimumSize(new Dimension(0, 0));
        imageArea.add(compare, BorderLayout.CENTER); // the view, with its source before/beside it when asked
        right = new JSplitPane(JSplitPane.HORIZONTAL_SPLIT, imageArea, attributes);
        right.setResizeWeight(1);
        right.setBorder(BorderFactory.createEmptyBorder());
        JSplitPane main = new JSplitPane(JSplitPane.HORIZONTAL_SPLIT, browser, right);
        main.setBorder(BorderFactory.createEmptyBorder());
        add(toolbar, BorderLayout.NORTH);
        add(main, BorderLayout.CENTER);
        add(status, BorderLayout.SOUTH);
        new CompareFlow(this, compare);
        new ReadingTools(this, windowControls); // measurements, invert/rotate/flip, presets by modality (after layout)
        setSize(1560, 940);
        keys.install();
        controller.changed();
        var isolation = catalog.isolation();
        status.message((benchmarkCsv != null ? "Benchmark mode: timings go to " + benchmarkCsv.toAbsolutePath()
                : "Ready") + (isolation.confined() ? "" : ". " + isolation.headline() + " (Filters menu: details)"));
        addWindowListener(new WindowAdapter() {
            @Override
            public void windowClosed(WindowEvent e) {
                shutdown();
            }
        });
    }

    // ------------------------------------------------------------------ extension points (event thread)

    /**
     * Adds an item named {@code itemName} to a menu ({@link ViewerMenuBar#FILE}, EDIT, VIEW or one added); the
     * action's accelerator works whichever component has the focus.
     */
    JMenuItem addMenuItem(String menuName, String itemName, Action action) {
        keys.bindAccelerator(action);
        return menus.addItem(menuName, itemName, action);
    }

    /** The menus: {@code menuBar().addMenu(name, label)} adds a new one. */
    ViewerMenuBar menuBar() {
        return menus;
    }

    /** Appends a tool bar button named {@code name} for {@code action}. */
    JButton addToolbarButton(String label, String name, Action action) {
        JButton b = toolbar.addButton(label, name, action);
        toolbar.revalidate();
        return b;
    }

    /** Adds a mouse tool (a toggle) after W/L, Pan and Select, in their group. */
    void addTool(javax.swing.AbstractButton tool) {
        toolbar.addTool(tool);
        toolbar.revalidate();
    }

    /** Appends a separated group of tool bar controls, after {@code label} when not null. */
    void addToolbarGroup(String label, JComponent... components) {
        toolbar.addGroup(label, components);
        toolbar.revalidate();
    }

    /**
     * Binds a key to an action for the whole window, whichever component has the focus (not in dialogs); a disabled
     * action's key says so in the status bar, with the action's SHORT_DESCRIPTION as the reason.
     */
    void bindKey(KeyStroke key, String name, Action action) {
        if (action.getValue(Action.NAME) == null) {
            action.putValue(Action.NAME, name); // what the status bar calls it when it is disabled
        }
        keys.bind(key, action);
    }

    /** Adds a tab beside Files and DICOM in the browser on the left. */
    void addBrowserTab(String title, JComponent panel) {
        browser.addTab(title, panel);
    }

    /** Adds a tab to the right-hand side panel (Attributes is the first tab once there are two). */
    void addSidePanel(String title, JComponent panel) {
        if (sidePanels == null) {
            sidePanels = new JTabbedPane();
            sidePanels.setName("sidePanels");
            sidePanels.setPreferredSize(attributes.getPreferredSize());
            sidePanels.setMinimumSize(new Dimension(0, 0));
            sidePanels.addTab("Attributes", attributes);
            right.setRightComponent(sidePanels);
        }
        sidePanels.addTab(title, panel);
    }

    /** Puts {@code panel} beside the image: {@code BorderLayout.SOUTH} (a strip below it), NORTH, EAST or WEST. */
    void addImagePanel(String borderLayoutPosition, JComponent panel) {
        imageArea.add(panel, borderLayoutPosition);
        imageArea.revalidate();
    }

    /** The open document, the connection, the view; {@code controller().addListener} follows their changes. */
    ViewerController controller() {
        return controller;
    }

    /** Runs when the window closes (stop background work). */
    void onClose(Runnable cleanup) {
        onClose.add(cleanup);
    }

    // ------------------------------------------------------------------ for the launcher and tests

    /** Where single sign-on opens the provider's page (the desktop's browser unless a test puts its own). */
    void useBrowser(org.medjava.viewer.store.SystemBrowser browser) {
        connect.useBrowser(browser);
    }

    /** Shows the connect dialog (pre-filled when given) and connects. Event thread. */
    public void askConnect(String url, String user) {
        connect.askConnect(url, user);
    }

    /** Connects without asking (credentials given at start). Event thread. */
    public void connectWith(StoreClient c) {
        connect.connectWith(c);
    }

    /** Opens a local file. Event thread. */
    public void openLocal(Path file) {
        open.openLocal(file);
    }

    /** Downloads and opens a store file. Event thread. */
    public void openStore(String path) {
        open.openStore(path);
    }

    public StoreClient client() {
        return controller.client();
    }

    public ImageDocument document() {
        return controller.document();
    }

    public ImageView imageView() {
        return view;
    }

    /** The image area: the view with its source before or beside it (before/after, side by side). */
    CompareView compareView() {
        return compare;
    }

    public StatusBar statusBar() {
        return status;
    }

    public boolean busy() {
        return tasks.busy();
    }

    JMenuItem seriesJobItem() {
        for (int i = 0; i < filtersMenu.getItemCount(); i++) {
            JMenuItem item = filtersMenu.getItem(i);
            if (item != null && "seriesJobItem".equals(item.getName())) {
                return item;
            }
        }
        return null;
    }

    /** Series and stacks: the stack, the series strip. */
    /** Opens a store series as a stack (a double-click in the DICOM tree). */
    private void openSeries(String studyUid, String seriesUid) {
        seriesView.openSeries(studyUid, seriesUid);
    }

    SeriesView seriesView() {
        return seriesView;
    }

    JMenuItem filterItem(String filterId) {
        return filtersMenu.item(filterId);
    }

    private org.medjava.filter.Implementation filterImplementation() {
        return filtersMenu.implementation();
    }

    private void shutdown() {
        keys.uninstall();
        onClose.forEach(Runnable::run);
        connect.shutdown();
        controller.shutdown();
        tasks.shutdown();
        catalog.close();
    }
}
