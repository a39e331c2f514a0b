package org.medjava.viewer.ui;

import java.awt.KeyEventDispatcher;
import java.awt.KeyboardFocusManager;
import java.awt.Window;
import java.awt.event.ActionEvent;
import java.awt.event.KeyEvent;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import javax.swing.Action;
import javax.swing.KeyStroke;
import javax.swing.SwingUtilities;

/**
 * The main window's keyboard shortcuts, whichever of its components has the focus: they are taken before the focused
 * component sees them (a tree, a table or a text field has key bindings of its own that could swallow them), and a
 * shortcut whose action is disabled says why in the status bar instead of doing nothing. Keys typed in dialogs are
 * left to the dialogs.
 */
final class WindowKeys implements KeyEventDispatcher {
    private final Window window;
    private final Consumer<String> status;
    private final Map<KeyStroke, Action> keys = new LinkedHashMap<>();

    WindowKeys(Window window, Consumer<String> status) {
        this.window = window;
        this.status = status;
    }

    void install() {
        KeyboardFocusManager.getCurrentKeyboardFocusManager().addKeyEventDispatcher(this);
    }

    void uninstall() {
        KeyboardFocusManager.getCurrentKeyboardFocusManager().removeKeyEventDispatcher(this);
    }

    /** Binds {@code key} to {@code action} (replacing an earlier binding of the key). */
    void bind(KeyStroke key, Action action) {
        keys.put(key, action);
    }

    /** Binds the action's accelerator, when it has one. */
    void bindAccelerator(Action action) {
        if (action.getValue(Action.ACCELERATOR_KEY) instanceof KeyStroke key) {
            bind(key, action);
        }
    }

    @Override
    public boolean dispatchKeyEvent(KeyEvent e) {
        if (e.getID() != KeyEvent.KEY_PRESSED || e.isConsumed() || !inWindow(e)) {
            return false;
        }
        Action action = keys.get(KeyStroke.getKeyStrokeForEvent(e));
        if (action == null) {
            return false;
        }
        e.consume();
        if (action.isEnabled()) {
            action.actionPerformed(new ActionEvent(e.getComponent(), ActionEvent.ACTION_PERFORMED,
                    (String) action.getValue(Action.ACTION_COMMAND_KEY), e.getWhen(), e.getModifiersEx()));
        } else {
            Object why = action.getValue(Action.SHORT_DESCRIPTION);
            status.accept(action.getValue(Action.NAME) + " is not available now" + (why instanceof String s
                    && !s.isBlank() ? ": " + s : ""));
        }
        return true;
    }

    private boolean inWindow(KeyEvent e) {
        return e.getComponent() == window || (e.getComponent() != null
                && SwingUtilities.getWindowAncestor(e.getComponent()) == window);
    }
}
