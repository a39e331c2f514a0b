package org.medjava.viewer.ui;

import java.awt.event.KeyAdapter;
import java.awt.event.KeyEvent;
import java.awt.event.MouseAdapter;
import java.awt.event.MouseEvent;
import java.util.function.Consumer;
import javax.swing.JTree;
import javax.swing.event.TreeExpansionEvent;
import javax.swing.event.TreeWillExpandListener;
import javax.swing.tree.DefaultMutableTreeNode;
import javax.swing.tree.DefaultTreeModel;
import javax.swing.tree.TreePath;
import org.medjava.viewer.store.Listing;
import org.medjava.viewer.store.StoreClient;

/**
 * The store's directories as a tree that loads each directory when it is first expanded (off the event thread).
 * Double-click or Enter on a file opens it.
 */
final class StoreTree extends JTree {
    private static final long serialVersionUID = 1L;

    /** What a node stands for: a directory (path ends with '/') or a file. */
    record Item(String path, String name, boolean directory, String summary, long size) {
        @Override
        public String toString() {
            if (directory) {
                return name + "/";
            }
            return summary.isEmpty() ? name : name + "  ·  " + summary;
        }
    }

    private static final String LOADING = "loading…";

    private final transient Tasks tasks;
    private final transient Consumer<String> open;
    private final transient Consumer<String> problem;
    private transient StoreClient client;

    StoreTree(Tasks tasks, Consumer<String> open, Consumer<String> problem, ThumbnailPanel thumbnail) {
        super(new DefaultTreeModel(new DefaultMutableTreeNode("not connected")));
        this.tasks = tasks;
        this.open = open;
        this.problem = problem;
        setName("storeTree");
        setRootVisible(true);
        setShowsRootHandles(true);
        javax.swing.ToolTipManager.sharedInstance().registerComponent(this);
        addTreeWillExpandListener(new TreeWillExpandListener() {
            @Override
            public void treeWillExpand(TreeExpansionEvent event) {
                load((DefaultMutableTreeNode) event.getPath().getLastPathComponent());
            }

            @Override
            public void treeWillCollapse(TreeExpansionEvent event) {
            }
        });
        addTreeSelectionListener(e -> {
            Object selected = e.getNewLeadSelectionPath() == null ? null
                    : ((DefaultMutableTreeNode) e.getNewLeadSelectionPath().getLastPathComponent()).getUserObject();
            if (selected instanceof Item item && !item.directory() && client != null) {
                thumbnail.show(client, item.path(), item.size());
            } else {
                thumbnail.clear("");
            }
        });
        addMouseListener(new MouseAdapter() {
            @Override
            public void mouseClicked(MouseEvent e) {
                if (e.getClickCount() == 2) {
                    openSelected();
                }
            }
        });
        addKeyListener(new KeyAdapter() {
            @Override
            public void keyPressed(KeyEvent e) {
                if (e.getKeyCode() == KeyEvent.VK_ENTER) {
                    openSelected();
                }
            }
        });
    }

    void connect(StoreClient storeClient) {
        this.client = storeClient;
        DefaultMutableTreeNode root = directoryNode(new Item("", storeClient.base().getHost() + ":"
                + storeClient.base().getPort() + " /images", true, "", 0));
        setModel(new DefaultTreeModel(root));
        load(root); // a visible root is expanded by setModel without a will-expand event
        expandPath(new TreePath(root));
    }

    /**
     * Shows a directory after an upload into it: reloads the deepest directory of its path the tree already has,
     * then opens the directories below it down to {@code dir} (which may all be new).
     */
    void reveal(String dir) {
        String known = dir;
        DefaultMutableTreeNode node = find((DefaultMutableTreeNode) getModel().getRoot(), known);
        while (node == null && !known.isEmpty()) {
            int slash = known.lastIndexOf('/', known.length() - 2);
            known = slash < 0 ? "" : known.substring(0, slash + 1);
            node = find((DefaultMutableTreeNode) getModel().getRoot(), known);
        }
        if (node == null) {
            return;
        }
        node.removeAllChildren();
        node.add(new DefaultMutableTreeNode(LOADING));
        ((DefaultTreeModel) getModel()).nodeStructureChanged(node);
        load(node, () -> {
            DefaultMutableTreeNode target = find((DefaultMutableTreeNode) getModel().getRoot(), dir);
            if (target == null) {
                String next = nextBelow(dir);
                if (next != null) {
                    reveal(dir);
                }
            } else {
                expandPath(new TreePath(target.getPath()));
            }
        });
    }

    /** Whether some directory on the way to {@code dir} is now in the tree (so revealing can go on). */
    private String nextBelow(String dir) {
        for (int end = dir.indexOf('/'); end >= 0; end = dir.indexOf('/', end + 1)) {
            String prefix = dir.substring(0, end + 1);
            DefaultMutableTreeNode n = find((DefaultMutableTreeNode) getModel().getRoot(), prefix);
            if (n != null && n.getChildCount() == 1 && LOADING.equals(((DefaultMutableTreeNode) n.getChildAt(0))
                    .getUserObject())) {
                return prefix;
            }
        }
        return null;
    }

    private DefaultMutableTreeNode find(DefaultMutableTreeNode node, String dir) {
        if (node.getUserObject() instanceof Item item && item.directory() && item.path().equals(dir)) {
            return node;
        }
        for (int i = 0; i < node.getChildCount(); i++) {
            DefaultMutableTreeNode found = find((DefaultMutableTreeNode) node.getChildAt(i), dir);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static DefaultMutableTreeNode directoryNode(Item item) {
        DefaultMutableTreeNode node = new DefaultMutableTreeNode(item, true);
        node.add(new DefaultMutableTreeNode(LOADING));
        return node;
    }

    private void load(DefaultMutableTreeNode node) {
        load(node, () -> { });
    }

    private void load(DefaultMutableTreeNode node, Runnable then) {
        if (!(node.getUserObject() instanceof Item item) || !item.directory() || client == null) {
            return;
        }
        if (node.getChildCount() != 1 || !LOADING.equals(((DefaultMutableTreeNode) node.getChildAt(0))
                .getUserObject())) {
            return; // loaded already
        }
        StoreClient c = client;
        tasks.background(p -> c.list(item.path()), listing -> {
            fill(node, listing);
            then.run();
        }, e -> {
            node.removeAllChildren();
            node.add(new DefaultMutableTreeNode(LOADING));
            ((DefaultTreeModel) getModel()).nodeStructureChanged(node);
            problem.accept(e.getMessage());
        });
    }

    private void fill(DefaultMutableTreeNode node, Listing listing) {
        node.removeAllChildren();
        for (Listing.Entry e : listing.entries()) {
            String path = listing.path() + e.name() + (e.directory() ? "/" : "");
            Item child = new Item(path, e.name(), e.directory(), e.dicom(), e.size());
            node.add(e.directory() ? directoryNode(child) : new DefaultMutableTreeNode(child, false));
        }
        ((DefaultTreeModel) getModel()).nodeStructureChanged(node);
        expandPath(new TreePath(node.getPath()));
    }

    private void openSelected() {
        TreePath selected = getSelectionPath();
        if (selected != null && ((DefaultMutableTreeNode) selected.getLastPathComponent()).getUserObject()
                instanceof Item item && !item.directory()) {
            open.accept(item.path());
        }
    }

    /**
     * Scrolls only vertically: JTree scrolls a row's end into view when it is selected or expanded, which in a narrow
     * browser pushed the start of every name (and the directory names) out of sight on the left.
     */
    @Override
    public void scrollRectToVisible(java.awt.Rectangle r) {
        java.awt.Rectangle visible = getVisibleRect();
        super.scrollRectToVisible(new java.awt.Rectangle(visible.x, r.y, Math.min(r.width, visible.width), r.height));
    }

    /** The whole text of the row under the mouse, for names longer than the browser is wide. */
    @Override
    public String getToolTipText(MouseEvent e) {
        TreePath path = getPathForLocation(e.getX(), e.getY());
        return path == null ? null : ((DefaultMutableTreeNode) path.getLastPathComponent()).getUserObject().toString();
    }

    /** The tree row showing store path {@code path}, or -1 (for tests and keyboard users). */
    int rowOf(String path) {
        for (int row = 0; row < getRowCount(); row++) {
            Object last = ((DefaultMutableTreeNode) getPathForRow(row).getLastPathComponent()).getUserObject();
            if (last instanceof Item item && item.path().equals(path)) {
                return row;
            }
        }
        return -1;
    }
}
