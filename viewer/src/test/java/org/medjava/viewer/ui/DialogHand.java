package org.medjava.viewer.ui;

import java.time.Duration;
import javax.swing.JButton;
import javax.swing.JDialog;
import org.assertj.swing.core.GenericTypeMatcher;
import org.assertj.swing.core.Robot;
import org.assertj.swing.edt.GuiActionRunner;
import org.assertj.swing.finder.WindowFinder;
import org.assertj.swing.fixture.DialogFixture;
import org.assertj.swing.fixture.JButtonFixture;

/**
 * Works a dialog like a user, with the care a loaded Xvfb asks for: Swing reports a dialog showing before the X server
 * has mapped it (a click sent earlier lands on the window below), and a click on a dialog is sometimes lost (a button
 * release that never arrived leaves the pointer grabbed by the window below). Every GUI test that clicks in a dialog
 * goes through here.
 */
final class DialogHand {
    private final Robot robot;
    private final Duration timeout;

    DialogHand(Robot robot, Duration timeout) {
        this.robot = robot;
        this.timeout = timeout;
    }

    /** The showing dialog named {@code name}, once it is active. */
    DialogFixture named(String name) {
        return active(WindowFinder.findDialog(name).withTimeout(timeout.toMillis()).using(robot));
    }

    /** The showing dialog titled {@code title} (message dialogs have no names), once it is active. */
    DialogFixture titled(String title) {
        return active(WindowFinder.findDialog(new GenericTypeMatcher<>(JDialog.class) {
            @Override
            protected boolean isMatching(JDialog d) {
                return d.isShowing() && title.equals(d.getTitle());
            }
        }).withTimeout(timeout.toMillis()).using(robot));
    }

    private DialogFixture active(DialogFixture dialog) {
        robot.releaseMouseButtons();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!GuiActionRunner.execute(() -> dialog.target().isActive())) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting until dialog "
                        + dialog.target().getTitle() + " is active");
            }
            robot.waitForIdle();
            sleep(50);
        }
        robot.waitForIdle();
        return dialog;
    }

    /**
     * Clicks a button that closes its dialog: release every button, click, and if the dialog is still there after a
     * few seconds try once more; only then press it programmatically, saying so, so that the test goes on to check
     * the application rather than the X server.
     */
    void clickToClose(DialogFixture dialog, JButtonFixture button) {
        for (int attempt = 1; attempt <= 2; attempt++) {
            robot.releaseMouseButtons();
            button.click();
            if (closesWithin(dialog, 5)) {
                return;
            }
        }
        System.out.println("GUI test: two robot clicks on \"" + button.target().getText() + "\" in \""
                + dialog.target().getTitle() + "\" were lost; pressing it programmatically");
        GuiActionRunner.execute(() -> button.target().doClick());
        if (!closesWithin(dialog, 10)) {
            throw new AssertionError("dialog " + dialog.target().getTitle() + " did not close after "
                    + button.target().getText());
        }
    }

    /** Clicks the button named {@code name} that closes its dialog. */
    void clickToClose(DialogFixture dialog, String name) {
        clickToClose(dialog, dialog.button(name));
    }

    /** Clicks the button with this text in a dialog (JOptionPane's buttons have no names). */
    void clickButton(DialogFixture dialog, String text) {
        clickToClose(dialog, dialog.button(new GenericTypeMatcher<>(JButton.class) {
            @Override
            protected boolean isMatching(JButton b) {
                return text.equals(b.getText()) && b.isShowing();
            }
        }));
    }

    /** Selects a radio button in a dialog, with the same care as {@link #clickToClose}. */
    void choose(DialogFixture dialog, String radioName) {
        var radio = dialog.radioButton(radioName);
        for (int attempt = 1; attempt <= 2 && !GuiActionRunner.execute(() -> radio.target().isSelected());
                attempt++) {
            robot.releaseMouseButtons();
            radio.click();
            robot.waitForIdle();
        }
        if (!GuiActionRunner.execute(() -> radio.target().isSelected())) {
            System.out.println("GUI test: robot clicks on " + radioName + " were lost; selecting it programmatically");
            GuiActionRunner.execute(() -> radio.target().doClick());
        }
        radio.requireSelected();
    }

    private boolean closesWithin(DialogFixture dialog, int seconds) {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (!GuiActionRunner.execute(() -> dialog.target().isShowing())) {
                return true;
            }
            sleep(100);
        }
        return false;
    }

    /** Sleeps, turning an interrupt into a test failure. */
    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
