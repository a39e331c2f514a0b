package org.medjava.viewer.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.imageio.ImageIO;
import javax.swing.JTextArea;
import org.assertj.swing.fixture.DialogFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.Raster;
import org.medjava.filter.runtime.PluginInfo;
import org.medjava.filter.testkit.HostilePlugins;
import org.medjava.filter.testkit.HostilePlugins.Attack;
import org.medjava.viewer.store.Manifest;

/**
 * Issue 31 in the viewer: the testkit's ten hostile plugins reach the running viewer as a store's plugins do —
 * listed in a filter manifest, downloaded, checked against its SHA-256 and their publisher's signature (the test
 * publisher) by the catalog the Filters menu shows — and are applied from the Filters menu like any filter, their
 * code running in the viewer's filter workers. Each time the window stays alive and answers, the user is told in
 * words which plugin failed and which limit stopped it, the image is unchanged, and the bundled filters still work.
 * One viewer for the whole class, as a reader's session would be: the later attacks find the pool the earlier left.
 */
@ExtendWith(ScreenshotOnFailure.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HostilePluginsGuiIT {
    @TempDir
    static Path dir;
    private ViewerDriver viewer;
    private ViewerDriver.AWTExceptionGuard guard;
    private final Map<String, byte[]> served = new ConcurrentHashMap<>();
    private Path secret;
    private int viewerThreads;

    @BeforeAll
    void startViewerWithAnImage() throws Exception {
        viewer = ViewerDriver.startOffline();
        assumeTrue(viewer.catalog.isolation().inWorkers(), "filter workers need Linux: "
                + viewer.catalog.isolation().details());
        Path png = dir.resolve("gradient.png");
        BufferedImage image = new BufferedImage(96, 80, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                image.setRGB(x, y, (x * 2) << 16 | (y * 3) << 8 | (x + y));
            }
        }
        ImageIO.write(image, "png", png.toFile());
        viewer.onEdt(() -> {
            viewer.frame.openLocal(png);
            return null;
        });
        viewer.await("the image is open", () -> viewer.frame.document() != null);
        viewer.awaitIdle();
        secret = Files.writeString(dir.resolve("secret.txt"), "the radiologist's password");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-r--r--"));
        applyBlurAndUndo(); // the workers are up and warm before the viewer's threads are counted
        viewerThreads = Thread.activeCount();
    }

    @BeforeEach
    void guard() {
        guard = ViewerDriver.guard();
    }

    @AfterEach
    void checkGuard() {
        guard.check();
    }

    @AfterAll
    void closeViewer() {
        if (viewer != null) {
            viewer.close();
        }
    }

    @Test
    @Order(1)
    void theFiltersMenuSaysThePluginsRunInWorkerProcesses() throws Exception {
        var isolation = viewer.catalog.isolation();
        assertThat(isolation.headline()).startsWith("Plugins run in 2 worker processes");
        viewer.window.menuItem("isolationItem").click();
        DialogFixture about = viewer.dialogTitled("Filter plugin isolation");
        String text = dialogText(about);
        assertThat(text).contains("own process with an empty environment", "heap capped at 512 MiB",
                "Plugin signatures: require");
        if (isolation.confined()) {
            assertThat(text).contains("namespaces (bubblewrap)");
        } else {
            assertThat(text).contains("Missing on this machine");
        }
        viewer.screenshot("viewer-filter-isolation");
        viewer.clickButton(about, "OK");
    }

    @Test
    @Order(2)
    void aPluginThatExitsWhileLoadingIsRefusedNamingItAndTheViewerKeepsRunning() throws Exception {
        List<String> problems = install(Attack.EXIT_AT_LOAD, null);
        assertThat(problems).singleElement().asString().contains(HostilePlugins.id(Attack.EXIT_AT_LOAD),
                "exit status 3");
        assertThat(viewer.onEdt(() -> viewer.frame.filterItem(HostilePlugins.id(Attack.EXIT_AT_LOAD)))).isNull();
        served.remove("/filters/" + HostilePlugins.id(Attack.EXIT_AT_LOAD) + ".jar"); // a store refuses it too
        applyBlurAndUndo();
    }

    @Test
    @Order(3)
    void exitEndsOnlyItsWorkerEachTimeAndTheThirdQuarantinesThePlugin() throws Exception {
        install(Attack.EXIT, null);
        for (int call = 1; call <= 3; call++) {
            String told = applyAndReadFailure(Attack.EXIT);
            assertThat(told).contains("exit status 1");
            if (call < 3) {
                assertThat(told).contains("the worker was replaced (fault " + call + " of 3");
            } else {
                assertThat(told).contains("is quarantined");
            }
            applyBlurAndUndo();
        }
        viewer.await("the quarantined filter is greyed out", () -> !viewer.frame.filterItem(
                HostilePlugins.id(Attack.EXIT)).isEnabled());
        assertThat(viewer.catalog.isolation().report().replaced()).isGreaterThanOrEqualTo(3);
    }

    @Test
    @Order(4)
    void aFileOfTheUserCannotBeRead() throws Exception {
        install(Attack.READ_FILE, secret.toString());
        assertThat(applyAndReadFailure(Attack.READ_FILE)).contains("NoSuchFileException")
                .doesNotContain("password");
        applyBlurAndUndo();
    }

    @Test
    @Order(5)
    void noFileCanBeWritten() throws Exception {
        Path target = dir.resolve("written-by-a-plugin.txt");
        install(Attack.WRITE_FILE, target.toString());
        applyAndReadFailure(Attack.WRITE_FILE);
        assertThat(target).doesNotExist();
        applyBlurAndUndo();
    }

    @Test
    @Order(6)
    void noProgramCanBeRun() throws Exception {
        install(Attack.EXEC, null);
        assertThat(applyAndReadFailure(Attack.EXEC)).contains("Cannot run program");
        applyBlurAndUndo();
    }

    @Test
    @Order(7)
    void theNetworkIsOutOfReach() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(1000);
            install(Attack.CONNECT, "127.0.0.1:" + server.getLocalPort());
            assertThat(applyAndReadFailure(Attack.CONNECT)).contains("Connect");
            org.junit.jupiter.api.Assertions.assertThrows(SocketTimeoutException.class, server::accept,
                    "the plugin reached the viewer's computer");
        }
        applyBlurAndUndo();
    }

    @Test
    @Order(8)
    void aThreadBombHitsTheWorkersTaskCapNotTheViewer() throws Exception {
        install(Attack.THREAD_BOMB, null);
        assertThat(applyAndReadFailure(Attack.THREAD_BOMB)).contains("cap of 128 threads");
        applyBlurAndUndo();
        assertThat(Thread.activeCount()).as("the viewer's threads").isLessThanOrEqualTo(viewerThreads + 4);
    }

    @Test
    @Order(9)
    void aMemoryBombRunsOutOfTheWorkersMemoryNotTheViewers() throws Exception {
        install(Attack.MEMORY_BOMB, null);
        assertThat(applyAndReadFailure(Attack.MEMORY_BOMB)).containsAnyOf("heap of 512 MiB", "memory cap");
        applyBlurAndUndo();
    }

    @Test
    @Order(10)
    void noNativeLibraryCanBeLoaded() throws Exception {
        Path library = Path.of(System.getProperty("java.home"), "lib", "libzip.so");
        assumeTrue(Files.isRegularFile(library), "no " + library);
        install(Attack.NATIVE_LOAD, library.toString());
        applyAndReadFailure(Attack.NATIVE_LOAD);
        applyBlurAndUndo();
    }

    @Test
    @Order(11)
    void anEndlessLoopLeavesTheWindowAnsweringAndIsKilledASecondAfterCancel() throws Exception {
        install(Attack.INFINITE_LOOP, null);
        String id = HostilePlugins.id(Attack.INFINITE_LOOP);
        startApplying(id);
        viewer.await("the filter runs", () -> viewer.frame.busy());
        DialogHand.sleep(1500); // spinning in its worker
        for (int i = 0; i < 5; i++) { // the event thread answers while the plugin spins
            long start = System.nanoTime();
            double zoom = viewer.onEdt(() -> {
                viewer.frame.imageView().zoom(1.25);
                return viewer.frame.imageView().scale();
            });
            assertThat((System.nanoTime() - start) / 1_000_000).as("an event thread round trip, ms")
                    .isLessThan(1000);
            assertThat(zoom).isPositive();
        }
        assertThat(viewer.onEdt(() -> viewer.frame.busy())).as("still spinning").isTrue();
        long cancelled = System.nanoTime();
        viewer.window.button("cancel").click();
        DialogFixture told = viewer.dialogTitled("Plugin " + id + " 1 was stopped");
        assertThat((System.nanoTime() - cancelled) / 1_000_000).as("ms from Cancel to the report")
                .isLessThan(15_000);
        assertThat(dialogText(told)).contains("filter " + id, "ignored its cancellation", "worker was killed",
                "Its filters stay off");
        viewer.screenshot("viewer-runaway-plugin-stopped");
        viewer.clickButton(told, "OK");
        viewer.awaitIdle();
        assertThat(viewer.catalog.registry().plugin(id).orElseThrow().state()).isEqualTo(PluginInfo.State.FAILED);
        assertThat(viewer.onEdt(() -> viewer.frame.filterItem(id).isEnabled())).isFalse();
        assertThat(viewer.onEdt(() -> viewer.frame.document().history().canUndo())).isFalse();
        applyBlurAndUndo();
    }

    // ------------------------------------------------------------------ helpers

    /**
     * Lists the hostile plugin in a manifest as the store's {@code GET /filters} does and lets the catalog follow
     * it (with the plugins installed before), serving the JAR as the store's download link would.
     *
     * @return the catalog's problems, as the viewer's status bar shows them
     */
    private List<String> install(Attack attack, String target) throws Exception {
        String id = HostilePlugins.id(attack);
        byte[] jar = Files.readAllBytes(HostilePlugins.build(dir.resolve(id + ".jar"), attack, target));
        served.put("/filters/" + id + ".jar", jar);
        String sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(jar));
        List<Manifest.Plugin> listed = new java.util.ArrayList<>();
        for (var e : new java.util.TreeMap<>(served).entrySet()) {
            String pluginId = e.getKey().substring("/filters/".length(), e.getKey().length() - 4);
            String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(e.getValue()));
            listed.add(new Manifest.Plugin(pluginId, "1", "ACTIVE", sha, e.getKey(),
                    List.of(new Manifest.FilterState(pluginId, "ACTIVE"))));
        }
        List<String> problems = viewer.catalog.follow(new Manifest("\"" + sha256 + "\"", listed), served::get);
        if (attack != Attack.EXIT_AT_LOAD) {
            assertThat(problems).as("problems following the manifest").noneMatch(p -> p.contains(id));
            viewer.await(id + " is in the Filters menu", () -> viewer.frame.filterItem(id) != null
                    && viewer.frame.filterItem(id).isEnabled());
        }
        return problems;
    }

    /** Chooses the filter in the Filters menu, as a user does, and confirms its parameters if it has any. */
    private void startApplying(String filterId) {
        boolean asks = !viewer.catalog.registry().descriptor(filterId).params().isEmpty();
        viewer.window.menuItem("filter-" + filterId).click();
        if (asks) {
            DialogFixture params = viewer.dialog("filterParams");
            viewer.clickToClose(params, params.button("applyFilter"));
        }
    }

    /** Applies the hostile filter from the menu: the error dialog's text (it must name the plugin). */
    private String applyAndReadFailure(Attack attack) throws Exception {
        String id = HostilePlugins.id(attack);
        Raster before = viewer.onEdt(() -> viewer.frame.document().filterInput());
        startApplying(id);
        DialogFixture error = viewer.dialogTitled(id + " failed");
        String text = dialogText(error);
        assertThat(text).as("the failure names the plugin").contains("plugin " + id)
                .contains("The image and its undo history are unchanged");
        viewer.clickButton(error, "OK");
        viewer.awaitIdle();
        assertThat(viewer.frame.isDisplayable()).isTrue();
        assertThat(viewer.onEdt(() -> viewer.frame.document().history().canUndo())).isFalse();
        assertThat(viewer.onEdt(() -> viewer.frame.document().filterInput().rgb())).isEqualTo(before.rgb());
        return text;
    }

    /** Blur from the menu still works (through a worker), then Undo. */
    private void applyBlurAndUndo() {
        Raster before = viewer.onEdt(() -> viewer.frame.document().filterInput());
        startApplying("blur");
        viewer.await("blurred", () -> viewer.frame.document().history().canUndo());
        viewer.awaitIdle();
        assertThat(viewer.onEdt(() -> viewer.frame.document().filterInput().rgb())).isNotEqualTo(before.rgb());
        viewer.onEdt(() -> {
            viewer.frame.controller().undo();
            return null;
        });
        viewer.await("undone", () -> !viewer.frame.document().history().canUndo());
    }

    private String dialogText(DialogFixture dialog) {
        JTextArea area = viewer.robot.finder().findByName(dialog.target(), "dialogText", JTextArea.class, false);
        return viewer.onEdt(area::getText);
    }
}
