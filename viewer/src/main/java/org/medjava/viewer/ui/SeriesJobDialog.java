package org.medjava.viewer.ui;

import java.awt.BorderLayout;
import java.awt.FlowLayout;
import java.awt.Frame;
import java.util.function.Consumer;
import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JDialog;
import javax.swing.JLabel;
import javax.swing.JOptionPane;
import javax.swing.JPanel;
import javax.swing.JProgressBar;
import javax.swing.SwingUtilities;
import javax.swing.WindowConstants;
import org.medjava.viewer.store.Job;
import org.medjava.viewer.store.StoreClient;
import org.medjava.viewer.store.StoreException;

/**
 * The progress of a derive-series job on the store, non-modal so the viewer stays usable: "12 of 40" from polling
 * {@code GET /jobs/{id}} off the event thread every half second, Cancel asks the store to stop (it removes what the
 * job wrote). When the job ends the dialog closes and says how it ended; a done job offers to open the first derived
 * image or show the derived series' folder in the store tree.
 */
final class SeriesJobDialog extends JDialog {
    private static final long serialVersionUID = 1L;
    private static final long POLL_MILLIS = 500;

    private final transient Tasks tasks;
    private final transient StoreClient client;
    private final transient Consumer<String> openPath;
    private final transient Consumer<String> revealDirectory;
    private final transient Consumer<String> status;
    private final JProgressBar bar = new JProgressBar();
    private final JLabel state = new JLabel("Waiting for a free worker on the store…");
    private final JButton cancel = new JButton("Cancel");
    private transient Job job;
    private volatile boolean closed;

    /** The option of the end dialog that opens the first derived image (for tests). */
    static final String OPEN_FIRST = "Open the first derived image";

    SeriesJobDialog(Frame owner, Tasks tasks, StoreClient client, Job submitted, String what,
                    Consumer<String> openPath, Consumer<String> revealDirectory, Consumer<String> status) {
        super(owner, "Series on the store", false);
        this.tasks = tasks;
        this.client = client;
        this.job = submitted;
        this.openPath = openPath;
        this.revealDirectory = revealDirectory;
        this.status = status;
        setName("seriesJobDialog");
        setDefaultCloseOperation(WindowConstants.DO_NOTHING_ON_CLOSE); // closing alone would hide a running job
        bar.setName("seriesJobProgress");
        bar.setStringPainted(true);
        bar.setIndeterminate(true);
        state.setName("seriesJobState");
        cancel.setName("seriesJobCancel");
        cancel.addActionListener(e -> cancel());
        JPanel body = new JPanel(new BorderLayout(8, 8));
        body.setBorder(BorderFactory.createEmptyBorder(12, 12, 12, 12));
        body.add(Dialogs.text(what), BorderLayout.NORTH);
        body.add(bar, BorderLayout.CENTER);
        body.add(state, BorderLayout.SOUTH);
        JPanel buttons = new JPanel(new FlowLayout(FlowLayout.RIGHT));
        buttons.add(cancel);
        add(body, BorderLayout.CENTER);
        add(buttons, BorderLayout.SOUTH);
        pack();
        setLocationRelativeTo(owner);
        draw(submitted);
    }

    /** Shows the dialog and follows the job until it ends. Event thread. */
    void follow() {
        setVisible(true);
        String id = job.id();
        tasks.background(p -> {
            Job j = job;
            while (!closed && !j.finished()) {
                Thread.sleep(POLL_MILLIS);
                j = client.job(id);
                Job seen = j;
                SwingUtilities.invokeLater(() -> draw(seen));
            }
            return j;
        }, this::ended, e -> {
            close();
            Dialogs.error(getOwner(), "Series on the store", "The state of job " + id + " could not be read: "
                    + e.getMessage() + "\n\nThe job may still run on the store.");
        });
    }

    private void draw(Job j) {
        job = j;
        if (j.total() > 0) {
            bar.setIndeterminate(false);
            bar.setMaximum(j.total());
            bar.setValue(j.done());
            bar.setString(j.done() + " of " + j.total());
        }
        String of = j.total() > 0 ? j.done() + " of " + j.total() : "starting";
        state.setText(switch (j.state()) {
            case "QUEUED" -> "Waiting for a free worker on the store…";
            case "RUNNING" -> j.cancelRequested() ? "Cancelling… (" + of + ")" : "Deriving the series on the store: "
                    + of;
            default -> j.state();
        });
    }

    private void cancel() {
        cancel.setEnabled(false);
        state.setText("Cancelling…");
        String id = job.id();
        tasks.background(p -> client.cancelJob(id), this::draw, e -> {
            // 409: it ended meanwhile; the next poll shows how
            if (!(e instanceof StoreException s && s.status() == 409)) {
                cancel.setEnabled(true);
                state.setText("Could not cancel: " + e.getMessage());
            }
        });
    }

    private void ended(Job j) {
        draw(j);
        close();
        switch (j.state()) {
            case "DONE" -> done(j);
            case "CANCELLED" -> {
                status.accept("Series job cancelled: " + j.result());
                JOptionPane.showMessageDialog(getOwner(), Dialogs.text("Cancelled: " + j.result()),
                        "Series job cancelled", JOptionPane.INFORMATION_MESSAGE);
            }
            default -> {
                status.accept("Series job failed: " + j.result());
                Dialogs.error(getOwner(), "Series job failed", "The store could not derive the series: "
                        + j.result());
            }
        }
    }

    private void done(Job j) {
        Job.DerivedSeries result;
        try {
            result = j.derivedSeries();
        } catch (java.io.IOException e) {
            Dialogs.error(getOwner(), "Series job done", e.getMessage());
            return;
        }
        status.accept("Derived series stored: " + result.derived() + " images in " + result.directory());
        int choice = Dialogs.choose(getOwner(), "Series job done", "Done: " + result.derived()
                + " images kept as the derived series " + result.seriesInstanceUid() + " in " + result.directory()
                + ".", JOptionPane.INFORMATION_MESSAGE, OPEN_FIRST, "Show in the store tree", "Close");
        if (choice == 0) {
            openPath.accept(result.first());
        } else if (choice == 1) {
            revealDirectory.accept(result.directory());
        }
    }

    private void close() {
        closed = true;
        dispose();
    }
}
