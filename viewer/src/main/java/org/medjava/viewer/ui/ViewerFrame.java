package org.medjava.viewer.ui;

import java.awt.BorderLayout;
import java.awt.Dimension;
import java.awt.Toolkit;
import java.awt.event.ActionEvent;
import java.awt.event.KeyEvent;
import java.awt.event.WindowAdapter;
import java.awt.event.WindowEvent;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import javax.swing.AbstractAction;
import javax.swing.Action;
import javax.swing.BorderFactory;
import javax.swing.ButtonGroup;
import javax.swing.JComboBox;
import javax.swing.JFileChooser;
import javax.swing.JFrame;
import javax.swing.JLabel;
import javax.swing.JMenu;
import javax.swing.JMenuBar;
import javax.swing.JMenuItem;
import javax.swing.JOptionPane;
import javax.swing.JPanel;
import javax.swing.JSpinner;
import javax.swing.JSplitPane;
import javax.swing.JTabbedPane;
import javax.swing.JToggleButton;
import javax.swing.JToolBar;
import javax.swing.KeyStroke;
import javax.swing.SpinnerNumberModel;
import javax.swing.SwingUtilities;
import javax.swing.filechooser.FileNameExtensionFilter;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.dicom.DicomElements;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.UnsupportedDataException;
import org.medjava.filter.runtime.ApplyRecord;
import org.medjava.filter.runtime.RegistryEvent;
import org.medjava.viewer.ViewerOptions;
import org.medjava.viewer.filters.FilterCatalog;
import org.medjava.viewer.filters.FilterEntry;
import org.medjava.viewer.filters.ManifestFollower;
import org.medjava.viewer.image.DocState;
import org.medjava.viewer.image.GreyRenderer;
import org.medjava.viewer.image.ImageDocument;
import org.medjava.viewer.image.ImageOrigin;
import org.medjava.viewer.image.OpenedImage;
import org.medjava.viewer.image.Rasters;
import org.medjava.viewer.image.UploadEncoder;
import org.medjava.viewer.model.BenchmarkCsv;
import org.medjava.viewer.model.FilterStep;
import org.medjava.viewer.model.RecentServers;
import org.medjava.viewer.model.SeriesJob;
import org.medjava.viewer.model.WindowLevel;
import org.medjava.viewer.store.Download;
import org.medjava.viewer.store.StoreClient;
import org.medjava.viewer.store.StoreException;

/**
 * The viewer's main window: the store browser on the left, the image in the middle, the DICOM attributes on the
 * right, the status bar below. It wires the parts together and keeps the event thread free: every download, decode,
 * render, filter and upload runs through {@link Tasks} or the {@link WindowRenderer}.
 */
public final class ViewerFrame extends JFrame {
    private static final long serialVersionUID = 1L;
    private static final ThreadLocal<ApplyRecord> LAST_TIMING = new ThreadLocal<>();
    /** The preset whose window spans the current values (the frame's, or the filtered ones). */
    private static final String FULL_RANGE = "Full range";

    private final transient ViewerOptions options;
    private final transient FilterCatalog catalog;
    private final transient BenchmarkCsv csv;
    private final transient RecentServers recent = RecentServers.standard();
    private final StatusBar status = new StatusBar();
    private final transient Tasks tasks = new Tasks(status);
    private final ImageView view = new ImageView();
    private final AttributesPanel attributes = new AttributesPanel();
    private final ThumbnailPanel thumbnail = new ThumbnailPanel(tasks);
    private final StoreTree storeTree;
    private final DicomSearchPanel dicomSearch;
    private final FiltersMenu filtersMenu;
    private final JComboBox<Object> presets = new JComboBox<>();
    private final JSpinner frameSpinner = new JSpinner(new SpinnerNumberModel(1, 1, 1, 1));
    private final JLabel frameCount = new JLabel(" / 1");
    private final transient WindowRenderer renderer;
    private final transient UploadFlow uploads;
    private final Map<String, Map<String, String>> lastParams = new HashMap<>();
    private final Action undo = action("Undo", KeyEvent.VK_Z, e -> undo());
    private final Action redo = action("Redo", KeyEvent.VK_Y, e -> redo());
    private final Action upload = action("Upload to store…", KeyEvent.VK_U, e -> upload());
    private final Action save = action("Save as…", KeyEvent.VK_S, e -> saveLocal());
    private final Action seriesJob = action("Apply the chain to the whole series on the store…", 0,
            e -> applyToSeries());
    private transient StoreClient client;
    private transient ManifestFollower follower;
    private transient ImageDocument doc;
    private transient Window dragStart;
    private transient WindowLevel windowLevel = new WindowLevel(256);
    private int displayVersion;
    private boolean updatingControls;

    public ViewerFrame(ViewerOptions options, FilterCatalog catalog) {
        super("MedJava Viewer");
        this.options = options;
        this.catalog = catalog;
        this.csv = options.benchmark() ? new BenchmarkCsv(options.benchmarkCsv()) : null;
        setName("viewer");
        setDefaultCloseOperation(JFrame.DISPOSE_ON_CLOSE);
        renderer = new WindowRenderer(this::rendered);
        storeTree = new StoreTree(tasks, this::openStore, status::message, thumbnail);
        dicomSearch = new DicomSearchPanel(tasks, this::openStore);
        filtersMenu = new FiltersMenu(catalog, this::applyFilter, seriesJob);
        uploads = new UploadFlow(this, tasks, status, this::relogin, this::uploaded);
        catalog.addListener(() -> SwingUtilities.invokeLater(() -> {
            filtersMenu.rebuild();
            updateSeriesJob(); // the store's filters may have changed
        }));
        catalog.registry().setTiming(true);
        catalog.registry().addListener(this::timed);
        view.setListener(new ViewListener());

        setJMenuBar(menus());
        JTabbedPane browser = new JTabbedPane();
        browser.setName("browserTabs");
        JPanel files = new JPanel(new BorderLayout());
        files.add(new javax.swing.JScrollPane(storeTree), BorderLayout.CENTER);
        files.add(thumbnail, BorderLayout.SOUTH);
        browser.addTab("Files", files);
        browser.addTab("DICOM", dicomSearch);
        browser.setPreferredSize(new Dimension(320, 600));
        attributes.setPreferredSize(new Dimension(400, 600));
        attributes.setMinimumSize(new Dimension(0, 0));
        JSplitPane right = new JSplitPane(JSplitPane.HORIZONTAL_SPLIT, view, attributes);
        right.setResizeWeight(1);
        right.setBorder(BorderFactory.createEmptyBorder());
        JSplitPane main = new JSplitPane(JSplitPane.HORIZONTAL_SPLIT, browser, right);
        main.setBorder(BorderFactory.createEmptyBorder());
        add(toolbar(), BorderLayout.NORTH);
        add(main, BorderLayout.CENTER);
        add(status, BorderLayout.SOUTH);
        setSize(1560, 940);
        updateControls();
        status.message(options.benchmark() ? "Benchmark mode: timings go to " + options.benchmarkCsv().toAbsolutePath()
                : "Ready");
        addWindowListener(new WindowAdapter() {
            @Override
            public void windowClosed(WindowEvent e) {
                shutdown();
            }
        });
    }

    // ------------------------------------------------------------------ layout

    private static Action action(String name, int key, Consumer<ActionEvent> body) {
        Action a = new AbstractAction(name) {
            private static final long serialVersionUID = 1L;

            @Override
            public void actionPerformed(ActionEvent e) {
                body.accept(e);
            }
        };
        if (key != 0) {
            a.putValue(Action.ACCELERATOR_KEY, KeyStroke.getKeyStroke(key,
                    Toolkit.getDefaultToolkit().getMenuShortcutKeyMaskEx()));
        }
        return a;
    }

    private JMenuBar menus() {
        JMenuBar bar = new JMenuBar();
        JMenu file = new JMenu("File");
        file.setName("fileMenu");
        file.add(item("connect", action("Connect to store…", KeyEvent.VK_K, e -> askConnect(null, null))));
        file.add(item("openLocal", action("Open file…", KeyEvent.VK_O, e -> chooseLocal())));
        file.addSeparator();
        file.add(item("uploadItem", upload));
        file.add(item("saveItem", save));
        file.addSeparator();
        file.add(item("exit", action("Exit", KeyEvent.VK_Q, e -> dispose())));
        JMenu edit = new JMenu("Edit");
        edit.setName("editMenu");
        edit.add(item("undoItem", undo));
        edit.add(item("redoItem", redo));
        edit.add(item("clearSelection", action("Clear selection", 0, e -> view.setSelection(null))));
        JMenu viewMenu = new JMenu("View");
        viewMenu.setName("viewMenu");
        viewMenu.add(item("fit", action("Fit to window", KeyEvent.VK_0, e -> view.fit())));
        viewMenu.add(item("actualSize", action("Actual size (1:1)", KeyEvent.VK_1, e -> view.actualSize())));
        viewMenu.add(item("zoomIn", action("Zoom in", KeyEvent.VK_EQUALS, e -> view.zoom(1.25))));
        viewMenu.add(item("zoomOut", action("Zoom out", KeyEvent.VK_MINUS, e -> view.zoom(0.8))));
        bar.add(file);
        bar.add(edit);
        bar.add(viewMenu);
        bar.add(filtersMenu);
        return bar;
    }

    private static JMenuItem item(String name, Action action) {
        JMenuItem item = new JMenuItem(action);
        item.setName(name);
        return item;
    }

    private JToolBar toolbar() {
        JToolBar bar = new JToolBar();
        bar.setFloatable(false);
        ButtonGroup tools = new ButtonGroup();
        for (ImageView.Tool t : ImageView.Tool.values()) {
            String label = switch (t) {
                case WINDOW_LEVEL -> "W/L";
                case PAN -> "Pan";
                case SELECT -> "Select";
            };
            JToggleButton b = new JToggleButton(label, t == view.tool());
            b.setName("tool-" + t.name().toLowerCase(java.util.Locale.ROOT));
            b.setToolTipText(switch (t) {
                case WINDOW_LEVEL -> "Drag: right/left widens/narrows the window, down/up raises/lowers the level";
                case PAN -> "Drag to move the image (the right button always pans)";
                case SELECT -> "Drag a rectangle: filters then apply to it only";
            });
            b.addActionListener(e -> view.setTool(t));
            tools.add(b);
            bar.add(b);
        }
        bar.addSeparator();
        bar.add(button("Fit", "fitButton", e -> view.fit()));
        bar.add(button("1:1", "actualSizeButton", e -> view.actualSize()));
        bar.addSeparator();
        bar.add(button("Undo", "undoButton", undo));
        bar.add(button("Redo", "redoButton", redo));
        bar.addSeparator();
        bar.add(new JLabel("Window "));
        presets.setName("presets");
        presets.setMaximumSize(new Dimension(260, 30));
        presets.addActionListener(e -> {
            if (!updatingControls && presets.getSelectedItem() instanceof WindowLevel.Preset p) {
                setWindow(p.window());
            } else if (!updatingControls && FULL_RANGE.equals(presets.getSelectedItem())) {
                setFullRangeWindow();
            }
        });
        bar.add(presets);
        bar.addSeparator();
        bar.add(new JLabel("Frame "));
        frameSpinner.setName("frame");
        frameSpinner.setMaximumSize(new Dimension(80, 30));
        frameSpinner.addChangeListener(e -> {
            if (!updatingControls) {
                changeFrame((Integer) frameSpinner.getValue() - 1);
            }
        });
        bar.add(frameSpinner);
        bar.add(frameCount);
        bar.addSeparator();
        bar.add(button("Upload", "uploadButton", upload));
        return bar;
    }

    private static javax.swing.JButton button(String label, String name, Consumer<ActionEvent> body) {
        return button(label, name, action(label, 0, body));
    }

    private static javax.swing.JButton button(String label, String name, Action action) {
        javax.swing.JButton b = new javax.swing.JButton(action);
        b.setText(label);
        b.setName(name);
        return b;
    }

    // ------------------------------------------------------------------ connecting

    /** Shows the connect dialog (pre-filled when given) and connects. Event thread. */
    public void askConnect(String url, String user) {
        StoreClient c = new ConnectDialog(this, tasks, recent.list(), url, user).ask();
        if (c != null) {
            connected(c);
        }
    }

    /** Connects without asking (credentials given at start). Event thread. */
    public void connectWith(StoreClient c) {
        status.message("Connecting to " + c.base() + "…");
        tasks.background(p -> c.list(""), listing -> connected(c), e -> {
            status.message(e.getMessage());
            askConnect(c.base().toString(), c.user());
        });
    }

    private StoreClient relogin() {
        String url = client == null ? null : client.base().toString();
        String user = client == null ? null : client.user();
        StoreClient c = new ConnectDialog(this, tasks, recent.list(), url, user).ask();
        if (c != null) {
            connected(c);
        }
        return c;
    }

    private void connected(StoreClient c) {
        if (follower != null) {
            follower.close();
        }
        client = c;
        try {
            recent.remember(new RecentServers.Server(c.base().toString(), c.user()));
        } catch (IOException e) {
            status.message("Connected, but the recent servers list could not be saved: " + e.getMessage());
        }
        setTitle("MedJava Viewer — " + c.user() + " @ " + c.base());
        storeTree.connect(c);
        dicomSearch.connect(c);
        follower = new ManifestFollower(catalog, c, text -> SwingUtilities.invokeLater(() -> status.message(text)));
        follower.start(options.manifestInterval());
        status.message("Connected to " + c.base() + " as " + c.user() + (csv == null ? ""
                : "; benchmark mode: filter timings go to " + csv.file().toAbsolutePath()));
        updateControls();
    }

    public StoreClient client() {
        return client;
    }

    // ------------------------------------------------------------------ opening

    private void chooseLocal() {
        JFileChooser chooser = new JFileChooser();
        chooser.setFileFilter(new FileNameExtensionFilter("Images (DICOM, GIF, PNG, JPEG, PPM)", "dcm", "gif", "png",
                "jpg", "jpeg", "ppm", "pnm"));
        if (chooser.showOpenDialog(this) == JFileChooser.APPROVE_OPTION) {
            openLocal(chooser.getSelectedFile().toPath());
        }
    }

    /** Opens a local file. Event thread. */
    public void openLocal(Path file) {
        tasks.foreground("Opening " + file.getFileName(), p -> prepare(OpenedImage.decode(
                new ImageOrigin.LocalFile(file), Files.readAllBytes(file))), this::show,
                e -> openFailed(file.getFileName().toString(), e, () -> openLocal(file)));
    }

    /** Downloads and opens a store file. Event thread. */
    public void openStore(String path) {
        StoreClient c = client;
        if (c == null) {
            status.message("Connect to a store first");
            return;
        }
        tasks.foreground("Downloading " + path, p -> {
            Download d = c.download(path, p);
            return prepare(OpenedImage.decode(new ImageOrigin.StoreFile(c.base().toString(), path, d.etag()),
                    d.bytes()));
        }, this::show, e -> openFailed(path, e, () -> openStore(path)));
    }

    /** An opened image with its display image, modality range and attributes, all computed off the event thread. */
    private record Prepared(OpenedImage image, BufferedImage display, double[] range,
                            java.util.List<DicomElements.Element> elements) {
    }

    private static Prepared prepare(OpenedImage image) {
        var elements = image.isDicom() ? DicomElements.of(image.dicom()) : java.util.List.<DicomElements.Element>of();
        if (image.isGreyDicom()) {
            Window w = image.dicom().defaultWindow().orElseThrow();
            return new Prepared(image, GreyRenderer.render(image.dicom(), w), GreyRenderer.modalityRange(image.dicom()),
                    elements);
        }
        return new Prepared(image, Rasters.toDisplay(image.toRaster(null)), null, elements);
    }

    private void openFailed(String what, Exception e, Runnable retry) {
        status.message("Could not open " + what + ": " + e.getMessage());
        if (e instanceof StoreException s && (s.unreachable() || s.status() >= 500)) {
            if (Dialogs.choose(this, "Could not open " + what, e.getMessage()
                    + (doc == null ? "" : "\n\nThe open image and its undo history are kept."),
                    JOptionPane.ERROR_MESSAGE, "Retry", "Cancel") == 0) {
                retry.run();
            }
        } else {
            Dialogs.error(this, "Could not open " + what, e.getMessage());
        }
    }

    private void show(Prepared p) {
        doc = new ImageDocument(p.image(), Runtime.getRuntime().maxMemory() / 4);
        displayVersion++;
        windowLevel = new WindowLevel(p.range() == null ? 256 : p.range()[1] - p.range()[0]);
        view.setImage(p.display(), false);
        attributes.show(p.elements());
        fillPresets();
        status.message("Opened " + p.image().origin().name() + " (" + p.image().width() + "×" + p.image().height()
                + (p.image().isDicom() ? ", DICOM " + p.image().dicom().photometricInterpretation() : "") + ")");
        updateControls();
    }

    private void fillPresets() {
        updatingControls = true;
        try {
            presets.removeAllItems();
            if (doc == null || !doc.image().isGreyDicom()) {
                presets.addItem("(colour: no window)");
                return;
            }
            var dicom = doc.image().dicom();
            int n = 1;
            for (Window w : dicom.windowPresets()) {
                presets.addItem(new WindowLevel.Preset("File " + n++, w));
            }
            presets.addItem(FULL_RANGE);
            WindowLevel.CT_PRESETS.forEach(presets::addItem);
            presets.setSelectedIndex(0);
        } finally {
            updatingControls = false;
        }
    }

    // ------------------------------------------------------------------ window/level and frames

    /** Sets the window of a grey DICOM original. Event thread. */
    public void setWindow(Window window) {
        if (doc == null || !doc.windowLive()) {
            status.message(doc == null ? "No image" : "Window/level is fixed: a filter ran on the 8-bit image; undo"
                    + " it to change the window");
            return;
        }
        doc.setWindow(window);
        renderer.request(doc.image().dicom(), doc.state().stored(), window);
        updateOverlays();
    }

    /** The window over the smallest to largest modality value now shown (computed off the event thread). */
    private void setFullRangeWindow() {
        if (doc == null || !doc.windowLive()) {
            setWindow(null);
            return;
        }
        ImageDocument d = doc;
        DocState s = d.state();
        var dicom = d.image().dicom();
        tasks.background(p -> s.stored() == null ? GreyRenderer.modalityRange(dicom)
                : GreyRenderer.modalityRange(dicom, s.stored()), range -> {
            if (doc == d && d.state() == s && d.windowLive()) {
                setWindow(Window.ofRange(range[0], range[1]));
            }
        }, e -> status.message(e.getMessage()));
    }

    private void rendered(WindowRenderer.Request request, BufferedImage image) {
        if (doc != null && doc.windowLive() && request.window().equals(doc.window())
                && request.image() == doc.image().dicom() && request.stored() == doc.state().stored()) {
            view.setImage(image, true);
        }
    }

    private void changeFrame(int frame) {
        if (doc == null || !doc.image().isDicom() || frame == doc.image().dicom().frame()) {
            return;
        }
        if (!doc.state().isOriginal()) {
            status.message("Undo the filters before changing the frame");
            updateControls();
            return;
        }
        ImageDocument d = doc;
        Window w = d.window();
        tasks.foreground("Decoding frame " + (frame + 1), p -> {
            OpenedImage next = d.image().frame(frame);
            return new Prepared(next, next.isGreyDicom() ? GreyRenderer.render(next.dicom(), w)
                    : Rasters.toDisplay(next.toRaster(null)), null, java.util.List.of());
        }, prepared -> {
            if (doc == d && d.state().isOriginal()) {
                d.setFrame(prepared.image());
                view.setImage(prepared.display(), true);
                updateControls();
            }
        }, e -> {
            Dialogs.error(this, "Frame " + (frame + 1), e.getMessage());
            updateControls();
        });
    }

    // ------------------------------------------------------------------ filters

    private void applyFilter(FilterEntry entry) {
        if (doc == null) {
            status.message("Open an image first");
            return;
        }
        Region region = view.selection();
        String target = region == null ? "the whole image" : "the selected region " + region.width() + "×"
                + region.height() + " at " + region.x() + "," + region.y();
        Map<String, String> raw = new FilterParamsDialog(this, entry.descriptor(),
                lastParams.getOrDefault(entry.id(), Map.of()), target).ask();
        if (raw == null) {
            return;
        }
        lastParams.put(entry.id(), raw);
        ImageDocument d = doc;
        DocState before = d.state();
        OpenedImage image = d.image();
        Window window = d.window();
        var implementation = filtersMenu.implementation();
        String name = entry.descriptor().displayName();
        tasks.foreground("Applying " + name, p -> filter(entry, raw, region, implementation, image, before, window),
                f -> {
                    if (doc != d || d.state() != before) {
                        status.message("The image changed meanwhile; the result was dropped");
                        return;
                    }
                    if (f.stored() != null) {
                        d.appliedStored(f.stored(), f.step());
                        if (!window.equals(d.window())) { // the window was dragged while the filter ran
                            renderer.request(image.dicom(), f.stored(), d.window());
                        }
                    } else {
                        if (d.windowLive() && window != null && !window.equals(d.window())) {
                            d.setWindow(window); // the window the 8-bit input was rendered through is the one fixed
                        }
                        d.applied(f.pixels(), f.step());
                    }
                    view.setImage(f.display(), true);
                    status.message(name + " " + f.step().params() + (region == null ? "" : " on " + region)
                            + (f.step().storedValues() ? " on the stored values" : "")
                            + (f.timing() == null ? "" : String.format(java.util.Locale.ROOT,
                            ": %.1f ms (%s, %d×%d)%s", f.timing().millis(), f.timing().implementation().id(),
                            f.timing().width(), f.timing().height(), csv == null ? "" : ", logged to " + csv.file()))
                            + (f.route().note() == null ? "" : ". " + f.route().note()));
                    updateControls();
                }, e -> filterFailed(name, e));
    }

    /** Runs a filter on a worker thread: on the stored values when the route allows, else on 8-bit pixels. */
    private Filtered filter(FilterEntry entry, Map<String, String> raw, Region region,
                            org.medjava.filter.Implementation implementation, OpenedImage image, DocState before,
                            Window window) throws IOException {
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

    private void filterFailed(String name, Exception e) {
        String unchanged = "\n\nThe image and its undo history are unchanged.";
        if (e instanceof UnsupportedDataException u) {
            status.message(name + " cannot filter this image: " + u.getMessage());
            Dialogs.error(this, name + " cannot filter this image", u.getMessage() + unchanged);
            return;
        }
        status.message(name + " failed: " + e.getMessage());
        Dialogs.error(this, name + " failed", e.getMessage() + unchanged);
    }

    /** A filter's result: 8-bit {@code pixels} or {@code stored} values, with what to show and what was done. */
    private record Filtered(Raster pixels, GrayRaster16 stored, BufferedImage display, FilterStep step,
                            ApplyRecord timing, ImageDocument.Route route) {
    }

    /** Registry events on the filtering thread: benchmark mode's timing records. */
    private void timed(RegistryEvent event) {
        if (event instanceof RegistryEvent.FilterApplied applied) {
            LAST_TIMING.set(applied.record());
            if (csv != null) {
                try {
                    csv.append(applied.record());
                } catch (IOException e) {
                    SwingUtilities.invokeLater(() -> status.message("Benchmark CSV " + csv.file() + ": "
                            + e.getMessage()));
                }
            }
        }
    }

    // ------------------------------------------------------------------ the chain over a whole series

    /** The open store DICOM instance's SeriesInstanceUID, or null when the open image is not one. */
    private String storeSeries() {
        if (doc == null || client == null || !(doc.origin() instanceof ImageOrigin.StoreFile)
                || !doc.image().isDicom()) {
            return null;
        }
        String uid = DicomElements.value(doc.image().dicom(), "SeriesInstanceUID");
        return uid.isBlank() ? null : uid;
    }

    /** Why the open image's chain cannot run over its series on the store now, or null. */
    private String seriesJobProblem() {
        if (storeSeries() == null) {
            return "open a DICOM image from the store (with a SeriesInstanceUID) first";
        }
        java.util.Set<String> storeFilters = new java.util.HashSet<>();
        catalog.entries().stream().filter(e -> e.origin() == FilterEntry.Origin.STORE && e.runnable())
                .forEach(e -> storeFilters.add(e.id()));
        return SeriesJob.problem(doc.state().chain(), doc.image().isGreyDicom(), storeFilters);
    }

    private void updateSeriesJob() {
        String problem = seriesJobProblem();
        seriesJob.setEnabled(problem == null);
        seriesJob.putValue(Action.SHORT_DESCRIPTION, problem != null ? "Not now: " + problem
                : "The store applies the chain to every image of this series and keeps a new derived series");
    }

    private void applyToSeries() {
        String problem = seriesJobProblem();
        if (problem != null) {
            status.message("Cannot apply the chain to the series: " + problem);
            return;
        }
        StoreClient c = client;
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
        if (Dialogs.choose(this, "Apply the chain to the whole series?", what + " It runs in the background; you can"
                + " cancel it.", JOptionPane.QUESTION_MESSAGE, "Apply to the series", "Cancel") != 0) {
            return;
        }
        status.message("Submitting the series job to the store…");
        tasks.background(p -> c.submitJob(SeriesJob.KIND, params), job -> {
            status.message("Series job " + job.id() + " submitted");
            new SeriesJobDialog(this, tasks, c, job, what, this::openStore, storeTree::reveal, status::message)
                    .follow();
        }, e -> {
            status.message("The series job was not started: " + e.getMessage());
            Dialogs.error(this, "The series job was not started", e.getMessage());
        });
    }

    // ------------------------------------------------------------------ undo/redo

    private void undo() {
        if (doc != null && doc.history().canUndo() && !tasks.busy()) {
            doc.history().undo();
            showState();
        }
    }

    private void redo() {
        if (doc != null && doc.history().canRedo() && !tasks.busy()) {
            doc.history().redo();
            showState();
        }
    }

    /** Shows the document's current state (after undo/redo), converting off the event thread. */
    private void showState() {
        ImageDocument d = doc;
        DocState s = d.state();
        int version = ++displayVersion;
        updateControls();
        if (d.windowLive()) {
            renderer.request(d.image().dicom(), s.stored(), d.window());
            return;
        }
        OpenedImage image = d.image();
        tasks.background(p -> Rasters.toDisplay(s.isOriginal() ? image.toRaster(null) : s.pixels()), display -> {
            if (version == displayVersion) {
                view.setImage(display, true);
            }
        }, e -> status.message(e.getMessage()));
    }

    // ------------------------------------------------------------------ upload and save

    private void upload() {
        if (doc == null) {
            status.message("Open an image first");
            return;
        }
        if (client == null) {
            askConnect(null, null);
            if (client == null) {
                return;
            }
        }
        uploads.start(client, snapshot(), doc.origin());
    }

    private UploadEncoder.Snapshot snapshot() {
        return UploadEncoder.Snapshot.of(doc);
    }

    private void uploaded(String path, String etag) {
        if (doc != null && doc.origin() instanceof ImageOrigin.StoreFile f && f.path().equals(path)) {
            doc.setOrigin(new ImageOrigin.StoreFile(f.server(), path, etag));
        }
        int slash = path.lastIndexOf('/');
        storeTree.reveal(slash < 0 ? "" : path.substring(0, slash + 1));
    }

    private void saveLocal() {
        if (doc == null) {
            return;
        }
        JFileChooser chooser = new JFileChooser();
        chooser.setSelectedFile(new java.io.File(UploadTarget.defaultName(doc.origin().name(),
                !doc.state().chain().isEmpty(), org.medjava.viewer.image.UploadFormat.PNG)));
        if (chooser.showSaveDialog(this) != JFileChooser.APPROVE_OPTION) {
            return;
        }
        Path file = chooser.getSelectedFile().toPath();
        UploadEncoder.Snapshot s = snapshot();
        boolean dicom = file.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".dcm");
        tasks.foreground("Saving " + file.getFileName(), p -> {
            if (dicom) { // the same derived object an upload as DICOM sends
                byte[] bytes = UploadEncoder.encode(s, org.medjava.viewer.image.UploadFormat.DICOM).bytes();
                ImageCodec.writeAtomically(file, out -> out.write(bytes));
            } else {
                ImageCodec.write(s.pixels(), file);
            }
            return file;
        }, f -> status.message("Saved " + f), e -> Dialogs.error(this, "Could not save", e.getMessage()));
    }

    // ------------------------------------------------------------------ state shown

    private void updateControls() {
        boolean open = doc != null;
        undo.setEnabled(open && doc.history().canUndo());
        redo.setEnabled(open && doc.history().canRedo());
        upload.setEnabled(open);
        save.setEnabled(open);
        updateSeriesJob();
        presets.setEnabled(open && doc.windowLive());
        updatingControls = true;
        try {
            int frames = open && doc.image().isDicom() ? doc.image().dicom().frameCount() : 1;
            int frame = open && doc.image().isDicom() ? doc.image().dicom().frame() : 0;
            frameSpinner.setModel(new SpinnerNumberModel(frame + 1, 1, frames, 1));
            frameSpinner.setEnabled(frames > 1 && open && doc.state().isOriginal());
            frameCount.setText(" / " + frames);
        } finally {
            updatingControls = false;
        }
        updateOverlays();
    }

    private void updateOverlays() {
        if (doc == null) {
            view.setCorners("", "", "", "");
            status.facts("");
            return;
        }
        OpenedImage image = doc.image();
        String zoom = Math.round(view.scale() * 100) + " %";
        String filters = doc.state().chain().isEmpty() ? "" : "\n" + doc.state().chain().steps().size()
                + " filter(s): " + doc.state().chain().describe();
        String wl = image.isGreyDicom() ? (doc.windowLive() ? WindowLevel.format(doc.window())
                : "W/L fixed (" + WindowLevel.format(doc.state().renderedWith()) + ")") : "";
        if (image.isDicom()) {
            var d = image.dicom();
            view.setCorners(
                    join(DicomElements.value(d, "PatientName").replace('^', ' '), "ID " + d.attributes().patientId(),
                            DicomElements.value(d, "PatientBirthDate") + " " + DicomElements.value(d, "PatientSex")),
                    join(DicomElements.value(d, "InstitutionName"), DicomElements.value(d, "StudyDescription"),
                            DicomElements.value(d, "StudyDate") + " " + DicomElements.value(d, "StudyTime"),
                            d.attributes().modality()),
                    join("Se " + DicomElements.value(d, "SeriesNumber") + " " + DicomElements.value(d,
                                    "SeriesDescription"), "Im " + DicomElements.value(d, "InstanceNumber")
                                    + (d.frameCount() > 1 ? "  frame " + (d.frame() + 1) + "/" + d.frameCount() : ""),
                            d.width() + "×" + d.height() + " " + d.photometricInterpretation()),
                    join(wl, "Zoom " + zoom) + filters);
        } else {
            view.setCorners(image.origin().name(), image.format().name(), image.width() + "×" + image.height(),
                    "Zoom " + zoom + filters);
        }
        status.facts((wl.isEmpty() ? "" : wl + "   ") + zoom);
    }

    private static String join(String... lines) {
        StringBuilder b = new StringBuilder();
        for (String l : lines) {
            if (l != null && !l.isBlank()) {
                b.append(b.length() == 0 ? "" : "\n").append(l.trim());
            }
        }
        return b.toString();
    }

    private final class ViewListener implements ImageView.Listener {
        @Override
        public void windowDragStarted() {
            dragStart = doc != null && doc.windowLive() ? doc.window() : null;
        }

        @Override
        public void windowDragged(int dx, int dy) {
            if (dragStart != null) {
                setWindow(windowLevel.drag(dragStart, dx, dy));
            }
        }

        @Override
        public void selectionChanged(Region region) {
            status.message(region == null ? "Selection cleared: filters apply to the whole image"
                    : "Selected " + region.width() + "×" + region.height() + " at " + region.x() + "," + region.y()
                    + ": filters apply to it only");
        }

        @Override
        public void zoomChanged() {
            updateOverlays();
        }
    }

    // ------------------------------------------------------------------ for tests and the launcher

    public ImageDocument document() {
        return doc;
    }

    public ImageView imageView() {
        return view;
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

    JMenuItem filterItem(String filterId) {
        return filtersMenu.item(filterId);
    }

    private void shutdown() {
        if (follower != null) {
            follower.close();
        }
        renderer.shutdown();
        tasks.shutdown();
        catalog.close();
    }
}
