package org.medjava.viewer.ui;

import java.util.function.Consumer;
import javax.swing.ButtonGroup;
import javax.swing.JMenu;
import javax.swing.JMenuItem;
import javax.swing.JRadioButtonMenuItem;
import org.medjava.filter.Implementation;
import org.medjava.filter.runtime.FilterInfo;
import org.medjava.viewer.filters.FilterCatalog;
import org.medjava.viewer.filters.FilterEntry;

/**
 * The Filters menu, rebuilt from the catalog whenever a plugin is loaded, replaced, suspended, resumed or removed
 * (locally or by following the store), so it always shows what the registry can run now. Each item names the
 * plugin's origin and version; suspended or failed filters stay visible but disabled, with the reason. An item below
 * says how the plugins run (worker processes, how well sandboxed, or inside the viewer) and opens the details.
 */
final class FiltersMenu extends JMenu {
    private static final long serialVersionUID = 1L;

    private final transient FilterCatalog catalog;
    private final transient Consumer<FilterEntry> apply;
    private final javax.swing.Action seriesJob;
    private Implementation implementation = Implementation.PARALLEL;

    /** @param seriesJob applies the open image's chain to its whole series on the store */
    FiltersMenu(FilterCatalog catalog, Consumer<FilterEntry> apply, javax.swing.Action seriesJob) {
        super("Filters");
        this.catalog = catalog;
        this.apply = apply;
        this.seriesJob = seriesJob;
        setName("filtersMenu");
        setMnemonic('i');
        rebuild();
    }

    Implementation implementation() {
        return implementation;
    }

    /** Event thread. */
    void rebuild() {
        removeAll();
        var entries = catalog.entries();
        if (entries.isEmpty()) {
            JMenuItem none = new JMenuItem(catalog.loadingBundled() ? "Loading filters…" : "No filters loaded");
            none.setEnabled(false);
            add(none);
        }
        for (FilterEntry e : entries) {
            String label = e.descriptor().displayName() + (e.descriptor().params().isEmpty() ? "" : "…");
            JMenuItem item = new JMenuItem(label + "   [" + e.origin().label() + " " + e.pluginVersion() + "]"
                    + (e.state() == FilterInfo.State.SUSPENDED ? " — suspended"
                    : e.state() == FilterInfo.State.FAILED ? " — failed" : ""));
            item.setName("filter-" + e.id());
            item.setEnabled(e.runnable());
            item.setToolTipText(e.reason() != null ? e.reason() : e.descriptor().description());
            item.addActionListener(a -> apply.accept(e));
            add(item);
        }
        addSeparator();
        JMenu impl = new JMenu("Implementation");
        impl.setName("implementationMenu");
        ButtonGroup group = new ButtonGroup();
        for (Implementation i : Implementation.values()) {
            JRadioButtonMenuItem item = new JRadioButtonMenuItem(i.id(), i == implementation);
            item.setName("impl-" + i.id());
            item.addActionListener(a -> implementation = i);
            group.add(item);
            impl.add(item);
        }
        add(impl);
        var isolation = catalog.isolation();
        JMenuItem hosting = new JMenuItem(isolation.headline() + "…");
        hosting.setName("isolationItem");
        hosting.setToolTipText("How filter plugins are kept from harming the viewer and this computer");
        hosting.addActionListener(a -> Dialogs.info(javax.swing.SwingUtilities.getWindowAncestor(this),
                "Filter plugin isolation", catalog.isolation().details()));
        add(hosting);
        addSeparator();
        JMenuItem series = new JMenuItem(seriesJob);
        series.setName("seriesJobItem");
        add(series);
        JMenuItem hint = new JMenuItem("Select a region (S) to filter only part of the image");
        hint.setEnabled(false);
        add(hint);
        revalidate();
        repaint();
    }

    /** The menu item of a filter, or null (for tests). */
    JMenuItem item(String filterId) {
        for (int i = 0; i < getItemCount(); i++) {
            JMenuItem item = getItem(i);
            if (item != null && ("filter-" + filterId).equals(item.getName())) {
                return item;
            }
        }
        return null;
    }
}
