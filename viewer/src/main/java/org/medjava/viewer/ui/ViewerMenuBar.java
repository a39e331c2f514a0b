package org.medjava.viewer.ui;

import javax.swing.Action;
import javax.swing.JMenu;
import javax.swing.JMenuBar;
import javax.swing.JMenuItem;

/**
 * The main window's menus, found by their component names ({@link #FILE}, {@link #EDIT}, {@link #VIEW}, the Filters
 * menu's {@code filtersMenu}); features add their items with {@link #addItem}.
 */
final class ViewerMenuBar extends JMenuBar {
    static final String FILE = "fileMenu";
    static final String EDIT = "editMenu";
    static final String VIEW = "viewMenu";
    private static final long serialVersionUID = 1L;

    ViewerMenuBar() {
        addMenu(FILE, "File");
        addMenu(EDIT, "Edit");
        addMenu(VIEW, "View");
    }

    /** Adds a menu at the end, named {@code name} (for tests and {@link #menu}). */
    JMenu addMenu(String name, String label) {
        JMenu menu = new JMenu(label);
        menu.setName(name);
        add(menu);
        return menu;
    }

    /** The menu named {@code name}; fails when there is none (a typo should not go unnoticed). */
    JMenu menu(String name) {
        for (int i = 0; i < getMenuCount(); i++) {
            if (getMenu(i) != null && name.equals(getMenu(i).getName())) {
                return getMenu(i);
            }
        }
        throw new IllegalArgumentException("no menu named " + name);
    }

    /** Appends an item named {@code itemName} for {@code action} to the menu named {@code menuName}. */
    JMenuItem addItem(String menuName, String itemName, Action action) {
        JMenuItem item = new JMenuItem(action);
        item.setName(itemName);
        menu(menuName).add(item);
        return item;
    }

    void addSeparator(String menuName) {
        menu(menuName).addSeparator();
    }
}
