package org.medjava.viewer.ui;

import java.awt.Component;
import javax.swing.JOptionPane;
import javax.swing.JTextArea;
import javax.swing.UIManager;

/** Message dialogs whose text wraps and can be copied. */
final class Dialogs {
    private Dialogs() {
    }

    static JTextArea text(String message) {
        JTextArea area = new JTextArea(message, Math.min(12, 1 + message.length() / 60), 48);
        area.setLineWrap(true);
        area.setWrapStyleWord(true);
        area.setEditable(false);
        area.setOpaque(false);
        area.setFont(UIManager.getFont("Label.font"));
        area.setName("dialogText");
        return area;
    }

    static void error(Component parent, String title, String message) {
        JOptionPane.showMessageDialog(parent, text(message), title, JOptionPane.ERROR_MESSAGE);
    }

    static void info(Component parent, String title, String message) {
        JOptionPane.showMessageDialog(parent, text(message), title, JOptionPane.INFORMATION_MESSAGE);
    }

    /** @return the index of the chosen option, or -1 when the dialog was closed */
    static int choose(Component parent, String title, String message, int type, String... options) {
        return JOptionPane.showOptionDialog(parent, text(message), title, JOptionPane.DEFAULT_OPTION, type, null,
                options, options[0]);
    }
}
