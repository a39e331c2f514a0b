package org.medjava.viewer.ui;

import java.awt.BorderLayout;
import java.awt.Dimension;
import java.awt.FlowLayout;
import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JProgressBar;

/** The bottom line: the latest message, the running task's progress with its Cancel button, and image facts. */
public final class StatusBar extends JPanel {
    private static final long serialVersionUID = 1L;

    private final JLabel message = new JLabel(" ");
    private final JLabel facts = new JLabel(" ");
    private final JProgressBar progress = new JProgressBar(0, 1000);
    private final JButton cancel = new JButton("Cancel");
    private transient Runnable onCancel;

    public StatusBar() {
        super(new BorderLayout(8, 0));
        setBorder(BorderFactory.createEmptyBorder(3, 8, 3, 8));
        message.setName("status");
        facts.setName("facts");
        progress.setName("progress");
        cancel.setName("cancel");
        progress.setPreferredSize(new Dimension(180, progress.getPreferredSize().height));
        progress.setStringPainted(true);
        JPanel right = new JPanel(new FlowLayout(FlowLayout.RIGHT, 6, 0));
        right.add(facts);
        right.add(progress);
        right.add(cancel);
        add(message, BorderLayout.CENTER);
        add(right, BorderLayout.EAST);
        cancel.addActionListener(e -> {
            if (onCancel != null) {
                cancel.setEnabled(false);
                onCancel.run();
            }
        });
        idle();
    }

    public void message(String text) {
        message.setText(text == null || text.isBlank() ? " " : text);
        message.setToolTipText(text);
    }

    public String message() {
        return message.getText();
    }

    public void facts(String text) {
        facts.setText(text == null || text.isBlank() ? " " : text);
    }

    /** A task began: indeterminate until it reports a total. */
    public void busy(String title, Runnable cancelAction) {
        message(title + "…");
        onCancel = cancelAction;
        progress.setVisible(true);
        progress.setIndeterminate(true);
        progress.setString("");
        cancel.setVisible(cancelAction != null);
        cancel.setEnabled(cancelAction != null);
    }

    /** @param total -1 when unknown */
    public void progress(long done, long total) {
        if (total > 0) {
            progress.setIndeterminate(false);
            progress.setValue((int) Math.min(1000, done * 1000 / total));
            progress.setString(done * 100 / total + " %");
        }
    }

    public void idle() {
        onCancel = null;
        progress.setVisible(false);
        progress.setIndeterminate(false);
        cancel.setVisible(false);
    }

    public boolean isBusy() {
        return progress.isVisible();
    }
}
