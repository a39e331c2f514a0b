package org.medjava.viewer.ui;

import java.awt.Point;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import javax.imageio.ImageIO;
import org.assertj.swing.core.BasicRobot;
import org.assertj.swing.core.MouseButton;
import org.assertj.swing.core.Robot;
import org.assertj.swing.edt.GuiActionRunner;
import org.assertj.swing.fixture.FrameFixture;
import org.assertj.swing.fixture.JTreeFixture;
import org.medjava.viewer.ViewerApp;
import org.medjava.viewer.ViewerOptions;
import org.medjava.viewer.filters.FilterCatalog;
import org.medjava.viewer.testsupport.LocalStore;

/** Starts the real viewer window against the test store and drives it like a user, through AssertJ Swing. */
final class ViewerDriver implements AutoCloseable {
    static final Duration TIMEOUT = Duration.ofSeconds(90);

    final Robot robot;
    final ViewerFrame frame;
    final FrameFixture window;
    /** The viewer's filters (what its Filters menu shows and runs). */
    final FilterCatalog catalog;
    private final DialogHand hand;

    private static volatile ViewerDriver current;

    private ViewerDriver(Robot robot, ViewerFrame frame, FilterCatalog catalog) {
        this.robot = robot;
        this.frame = frame;
        this.catalog = catalog;
        this.window = new FrameFixture(robot, frame);
        this.hand = new DialogHand(robot, TIMEOUT);
        current = this;
    }

    /** The driver of the running test, for failure screenshots. */
    static ViewerDriver current() {
        return current;
    }

    /** The viewer connected to {@code store} as {@code user}, following the manifest every 300 ms. */
    static ViewerDriver start(LocalStore store, String user, String password, Path benchmarkCsv) throws IOException {
        return start(store.url(), user, password, benchmarkCsv);
    }

    /** The viewer connected to the store at {@code url} as {@code user}, with a fresh settings directory. */
    static ViewerDriver start(String url, String user, String password, Path benchmarkCsv) throws IOException {
        ViewerDriver driver = launch(Files.createTempDirectory("viewer-home-"), url, user, password, benchmarkCsv);
        driver.await("connected to the store", () -> driver.frame.client() != null);
        return driver;
    }

    /**
     * The viewer started as a person starts it, with settings directory {@code home} (recent servers), {@code url}
     * and maybe {@code user} but no password: it comes up with its login dialog.
     */
    static ViewerDriver startAsking(Path home, String url, String user) throws IOException {
        return launch(home, url, user, null, null);
    }

    /** The viewer started without a store (local files only), with a fresh settings directory. */
    static ViewerDriver startOffline() throws IOException {
        return launch(Files.createTempDirectory("viewer-home-"), null, null, null, null);
    }

    /** The bundled plugins' publisher and filter-testkit's (whose JARs the tests install on the store). */
    private static Path trustedPublishers() throws IOException {
        Path dir = Files.createTempDirectory("viewer-trusted-");
        Path bundled = Path.of(System.getProperty("medjava.plugins")).resolve("trusted-publishers");
        if (Files.isDirectory(bundled)) {
            try (var certificates = Files.list(bundled)) {
                for (Path c : certificates.toList()) {
                    Files.copy(c, dir.resolve(c.getFileName()));
                }
            }
        }
        org.medjava.filter.testkit.TestPublisher.standard().writeCertificate(dir.resolve("test-publisher.pem"));
        return dir;
    }

    private static ViewerDriver launch(Path home, String url, String user, String password, Path benchmarkCsv)
            throws IOException {
        System.setProperty("medjava.viewer.home", home.toString());
        System.setProperty("medjava.viewer.trusted-publishers", trustedPublishers().toString());
        ViewerOptions options = new ViewerOptions(url, user, password == null ? null : password.toCharArray(),
                benchmarkCsv, Path.of(System.getProperty("medjava.plugins")), Duration.ofMillis(300),
                ViewerOptions.filterWorkersFromProperties(), List.of());
        FilterCatalog catalog = ViewerApp.catalog(options);
        Robot robot = BasicRobot.robotWithNewAwtHierarchy();
        robot.settings().delayBetweenEvents(20);
        ViewerFrame frame = GuiActionRunner.execute(() -> ViewerApp.show(options, catalog));
        ViewerDriver driver = new ViewerDriver(robot, frame, catalog);
        driver.awaitBundledPlugins(catalog);
        return driver;
    }

    /** The bundled plugins load while the window comes up: tests start once they are in the Filters menu. */
    private void awaitBundledPlugins(FilterCatalog catalog) {
        try {
            List<String> problems = catalog.bundledLoaded().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            if (!problems.isEmpty()) {
                throw new AssertionError("bundled plugins did not load: " + problems);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new AssertionError("the bundled plugins did not load within " + TIMEOUT.toSeconds() + " s", e);
        }
        await("the Filters menu lists the bundled plugins", () -> frame.filterItem("blur") != null);
    }

    /** Reads a value on the event thread. */
    <T> T onEdt(Callable<T> read) {
        return GuiActionRunner.execute(read);
    }

    void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (GuiActionRunner.execute(condition::getAsBoolean)) {
                return;
            }
            robot.waitForIdle();
            DialogHand.sleep(100);
        }
        throw new AssertionError("timed out after " + TIMEOUT.toSeconds() + " s waiting until " + what
                + "; status bar: " + onEdt(() -> frame.statusBar().message()));
    }

    /** The showing dialog named {@code name}, once it is active. */
    org.assertj.swing.fixture.DialogFixture dialog(String name) {
        return hand.named(name);
    }

    /** The showing dialog titled {@code title} (message dialogs), once it is active. */
    org.assertj.swing.fixture.DialogFixture dialogTitled(String title) {
        return hand.titled(title);
    }

    /** Clicks a button that closes its dialog, like a user; see {@link DialogHand#clickToClose}. */
    void clickToClose(org.assertj.swing.fixture.DialogFixture dialog, org.assertj.swing.fixture.JButtonFixture button) {
        hand.clickToClose(dialog, button);
    }

    /** Selects a radio button in a dialog, with the same care. */
    void choose(org.assertj.swing.fixture.DialogFixture dialog, String radioName) {
        hand.choose(dialog, radioName);
    }

    /** Clicks the button with this text in a dialog (JOptionPane's buttons have no names). */
    void clickButton(org.assertj.swing.fixture.DialogFixture dialog, String text) {
        hand.clickButton(dialog, text);
    }

    /** Waits until no foreground task (download, filter, upload) runs. */
    void awaitIdle() {
        await("the viewer is idle", () -> !frame.busy());
    }

    /** Expands the store tree down to {@code path}'s directory and double-clicks the file, as a user would. */
    void openFromTree(String path) {
        JTreeFixture tree = window.tree("storeTree");
        String[] parts = path.split("/");
        StringBuilder dir = new StringBuilder();
        for (int i = 0; i < parts.length - 1; i++) {
            dir.append(parts[i]).append('/');
            String d = dir.toString();
            await("the tree shows " + d, () -> ((StoreTree) tree.target()).rowOf(d) >= 0);
            int row = onEdt(() -> ((StoreTree) tree.target()).rowOf(d));
            tree.expandRow(row);
        }
        await("the tree shows " + path, () -> ((StoreTree) tree.target()).rowOf(path) >= 0);
        int row = onEdt(() -> ((StoreTree) tree.target()).rowOf(path));
        tree.doubleClickRow(row);
    }

    /** Drags with the left button from image pixel {@code from} to image pixel {@code to} in the image view. */
    void dragOnImage(Point from, Point to) {
        ImageView view = frame.imageView();
        Point a = onEdt(() -> view.viewPoint(from.x + 0.5, from.y + 0.5));
        Point b = onEdt(() -> view.viewPoint(to.x + 0.5, to.y + 0.5));
        robot.moveMouse(view, a);
        robot.pressMouse(MouseButton.LEFT_BUTTON);
        for (int i = 1; i <= 8; i++) {
            robot.moveMouse(view, new Point(a.x + (b.x - a.x) * i / 8, a.y + (b.y - a.y) * i / 8));
        }
        robot.releaseMouse(MouseButton.LEFT_BUTTON);
        robot.waitForIdle();
    }

    /**
     * The green of the screen at the centre of image pixel {@code p} in {@code side}: the image view, or the
     * before/after pane's source side (which paints with the image view's geometry).
     */
    int screenGrey(java.awt.Component side, Point p) throws java.awt.AWTException {
        Point at = onEdt(() -> {
            Point v = frame.imageView().viewPoint(p.x + 0.5, p.y + 0.5);
            if (!new Rectangle(side.getSize()).contains(v)) {
                throw new AssertionError(p + " is out of sight at " + v);
            }
            Point screen = side.getLocationOnScreen();
            return new Point(screen.x + v.x, screen.y + v.y);
        });
        return new java.awt.Robot().getPixelColor(at.x, at.y).getGreen();
    }

    /** A screenshot of the viewer's window (and any dialog over it) into {@code target/screenshots/name.png}. */
    Path screenshot(String name) throws IOException, java.awt.AWTException {
        robot.waitForIdle();
        Rectangle bounds = onEdt(() -> frame.getBounds());
        BufferedImage shot = new java.awt.Robot().createScreenCapture(bounds);
        Path dir = Files.createDirectories(Path.of(System.getProperty("screenshots.dir", "target/screenshots")));
        Path file = dir.resolve(name + ".png");
        ImageIO.write(shot, "png", file.toFile());
        return file;
    }

    @Override
    public void close() {
        current = null;
        window.cleanUp();
    }

    static AWTExceptionGuard guard() {
        return new AWTExceptionGuard();
    }

    /** Fails a test when an exception escaped on the event thread (it would otherwise only be printed). */
    static final class AWTExceptionGuard {
        private volatile Throwable escaped;

        AWTExceptionGuard() {
            Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
                if (escaped == null) {
                    escaped = e;
                }
                e.printStackTrace();
            });
        }

        void check() {
            if (escaped != null) {
                throw new AssertionError("an exception escaped on " + "a viewer thread: " + escaped, escaped);
            }
        }
    }
}
