package org.medjava.viewer.ui;

import java.awt.event.ActionEvent;
import java.awt.event.KeyEvent;
import javax.swing.AbstractAction;
import javax.swing.JComponent;
import javax.swing.KeyStroke;

/**
 * The stack's keys on the image view (while it has the focus, so trees and text fields keep theirs): Up/Down one
 * image, Page Up/Page Down {@value #PAGE} images, Home/End the first/last.
 */
final class StackKeys {
    static final int PAGE = 10;

    private StackKeys() {
    }

    static void install(JComponent view, StackController stack) {
        bind(view, KeyEvent.VK_UP, "stack-previous", () -> stack.step(-1));
        bind(view, KeyEvent.VK_DOWN, "stack-next", () -> stack.step(1));
        bind(view, KeyEvent.VK_PAGE_UP, "stack-page-up", () -> stack.step(-PAGE));
        bind(view, KeyEvent.VK_PAGE_DOWN, "stack-page-down", () -> stack.step(PAGE));
        bind(view, KeyEvent.VK_HOME, "stack-first", () -> stack.go(0));
        bind(view, KeyEvent.VK_END, "stack-last", () -> stack.go(stack.count() - 1));
    }

    private static void bind(JComponent view, int key, String name, Runnable body) {
        view.getInputMap(JComponent.WHEN_FOCUSED).put(KeyStroke.getKeyStroke(key, 0), name);
        view.getActionMap().put(name, new AbstractAction(name) {
            private static final long serialVersionUID = 1L;

            @Override
            public void actionPerformed(ActionEvent e) {
                body.run();
            }
        });
    }
}
