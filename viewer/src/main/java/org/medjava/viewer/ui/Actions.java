package org.medjava.viewer.ui;

import java.awt.Toolkit;
import java.awt.event.ActionEvent;
import java.util.function.Consumer;
import javax.swing.AbstractAction;
import javax.swing.Action;
import javax.swing.KeyStroke;

/** Swing actions from lambdas, with the platform's menu shortcut (Ctrl, or Cmd on a Mac). */
final class Actions {
    private Actions() {
    }

    /** An action named {@code name}; {@code key} (a {@code KeyEvent.VK_} code, 0 for none) with the menu shortcut. */
    static Action of(String name, int key, Consumer<ActionEvent> body) {
        return of(name, key == 0 ? null : shortcut(key), body);
    }

    /** An action named {@code name} with accelerator {@code keyStroke} (null for none). */
    static Action of(String name, KeyStroke keyStroke, Consumer<ActionEvent> body) {
        Action a = new AbstractAction(name) {
            private static final long serialVersionUID = 1L;

            @Override
            public void actionPerformed(ActionEvent e) {
                body.accept(e);
            }
        };
        if (keyStroke != null) {
            a.putValue(Action.ACCELERATOR_KEY, keyStroke);
        }
        return a;
    }

    /** {@code key} with the platform's menu shortcut modifier. */
    static KeyStroke shortcut(int key) {
        return KeyStroke.getKeyStroke(key, Toolkit.getDefaultToolkit().getMenuShortcutKeyMaskEx());
    }
}
