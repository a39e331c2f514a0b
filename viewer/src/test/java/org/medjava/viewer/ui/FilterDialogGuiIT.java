package org.medjava.viewer.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import javax.imageio.ImageIO;
import javax.swing.JFrame;
import javax.swing.JSpinner;
import javax.swing.SwingUtilities;
import org.assertj.swing.core.BasicRobot;
import org.assertj.swing.core.Robot;
import org.assertj.swing.edt.GuiActionRunner;
import org.assertj.swing.fixture.DialogFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.Implementation;
import org.medjava.filter.ParamSpec;
import org.medjava.filter.runtime.CallControl;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.viewer.filters.FilterCatalog;
import org.medjava.viewer.image.FilterPreview;
import org.medjava.viewer.image.ImageDocument;
import org.medjava.viewer.image.ImageOrigin;
import org.medjava.viewer.image.OpenedImage;
import org.medjava.viewer.image.SyntheticDicom;

/**
 * The filter parameter dialog on a real window (no store needed): plain-language help with the spec's rule kept as
 * tooltip and details, and the live preview following a parameter change, debounced, equal to filtering the crop.
 */
class FilterDialogGuiIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final Window SOFT_TISSUE = new Window(40, 400);

    @TempDir
    Path dir;
    private FilterCatalog catalog;
    private Robot robot;
    private DialogHand hand;
    private JFrame owner;
    private final AtomicReference<Map<String, String>> answer = new AtomicReference<>();

    @BeforeEach
    void start() throws Exception {
        catalog = new FilterCatalog(new FilterRegistry(dir.resolve("work")), dir.resolve("downloads"));
        catalog.loadBundled(Path.of(System.getProperty("medjava.plugins")));
        robot = BasicRobot.robotWithNewAwtHierarchy();
        robot.settings().delayBetweenEvents(20);
        hand = new DialogHand(robot, TIMEOUT);
        owner = GuiActionRunner.execute(() -> {
            JFrame f = new JFrame("owner");
            f.setSize(300, 200);
            f.setVisible(true);
            return f;
        });
    }

    @AfterEach
    void stop() {
        robot.cleanUp();
        catalog.close();
    }

    private DialogFixture open(FilterDescriptor descriptor, FilterPreview preview) {
        SwingUtilities.invokeLater(() -> answer.set(new FilterParamsDialog(owner, descriptor, Map.of(),
                "the whole image", preview == null ? null : () -> preview, Implementation.OPTIMIZED).ask()));
        return hand.named("filterParams");
    }

    @Test
    void theDialogExplainsEachValuePlainlyAndKeepsTheSpecsRuleAsTooltipAndDetails() {
        FilterDescriptor sharpen = catalog.registry().descriptor("sharpen");
        DialogFixture dialog = open(sharpen, null);

        dialog.label("label-p").requireText("Strength (%)");
        assertThat(dialog.label("help-p").text()).contains("How strongly edges are lifted", "Higher is stronger");
        assertThat(dialog.label("filterHelp").text()).contains("Lifts edges");
        assertThat(dialog.spinner("param-p").target().getToolTipText()).contains("an integer from 0 to 99",
                "default 75", "enhancement factor in percent");
        javax.swing.JLabel details = robot.finder().findByName(dialog.target(), "details-p", javax.swing.JLabel.class,
                false);
        assertThat(onEdt(details::isShowing)).as("the spec's rule is hidden at first").isFalse();
        dialog.checkBox("showDetails").click();
        dialog.label("details-p").requireVisible();
        assertThat(dialog.label("details-p").text()).contains("an integer from 0 to 99");

        dialog.spinner("param-p").enterTextAndCommit("40");
        hand.clickToClose(dialog, "applyFilter");
        assertThat(answer.get()).containsEntry("p", "40");
    }

    @Test
    void aPluginWithoutHelpIsExplainedByItsSpecDescription() {
        FilterDescriptor old = FilterDescriptor.builder("old-fill").displayName("Old fill")
                .param(ParamSpec.oddInteger("n", 3, 1, 9, "mask size")).build();
        DialogFixture dialog = open(old, null);

        dialog.label("label-n").requireText("n");
        assertThat(dialog.label("help-n").text()).contains("mask size", "an odd integer from 1 to 9");
        hand.clickToClose(dialog, "cancelFilter");
        assertThat(answer.get()).isNull();
    }

    @Test
    void thePreviewFollowsAParameterChangeDebouncedAndShowsTheFilteredCrop() throws Exception {
        OpenedImage ct = OpenedImage.decode(new ImageOrigin.LocalFile(Path.of("ct.dcm")),
                SyntheticDicom.speckledCt(96, "2.25.4711"));
        var state = new ImageDocument(ct, 1 << 30).state();
        FilterPreview preview = FilterPreview.prepare(catalog.registry(), "sharpen", "Sharpen", ct, state,
                SOFT_TISSUE, null);
        DialogFixture dialog = open(catalog.registry().descriptor("sharpen"), preview);
        FilterParamsDialog target = (FilterParamsDialog) dialog.target();
        PreviewPanel panel = onEdt(target::previewPanel);

        await("the first preview", () -> panel.after() != null);
        assertThat(pixels(onEdt(panel::before))).isEqualTo(pixels(preview.before()));
        assertThat(pixels(onEdt(panel::after))).isEqualTo(pixels(expected(preview, "75")));
        String status = onEdt(panel::status);
        assertThat(status).contains("exactly what Apply gives");
        shot(dialog, "viewer-filter-preview");

        // five quick changes in one go: one preview, of the last value
        int runs = onEdt(target::previewRuns);
        GuiActionRunner.execute(() -> {
            JSpinner p = (JSpinner) dialog.spinner("param-p").target();
            for (int v : new int[] {70, 60, 50, 40, 20}) {
                p.setValue(v);
            }
        });
        BufferedImage at20 = expected(preview, "20");
        await("the preview of p=20", () -> Arrays.equals(pixels(panel.after()), pixels(at20)));
        assertThat(onEdt(target::previewRuns)).isEqualTo(runs + 1);
        assertThat(pixels(at20)).isNotEqualTo(pixels(expected(preview, "75")));

        // a typed value goes through the same path
        dialog.spinner("param-p").enterTextAndCommit("95");
        BufferedImage at95 = expected(preview, "95");
        await("the preview of p=95", () -> Arrays.equals(pixels(panel.after()), pixels(at95)));
        hand.clickToClose(dialog, "cancelFilter");
    }

    private static BufferedImage expected(FilterPreview preview, String p) {
        return preview.run(Map.of("p", p), Implementation.OPTIMIZED, CallControl.unlimited());
    }

    private static int[] pixels(BufferedImage image) {
        return image == null ? null : image.getRaster().getPixels(0, 0, image.getWidth(), image.getHeight(),
                (int[]) null);
    }

    private static <T> T onEdt(java.util.concurrent.Callable<T> read) {
        return GuiActionRunner.execute(read);
    }

    private void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (GuiActionRunner.execute(condition::getAsBoolean)) {
                return;
            }
            robot.waitForIdle();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        throw new AssertionError("timed out after " + TIMEOUT.toSeconds() + " s waiting until " + what);
    }

    /** The dialog as the user sees it, into target/screenshots (README material). */
    private void shot(DialogFixture dialog, String name) throws Exception {
        robot.waitForIdle();
        Rectangle bounds = onEdt(() -> dialog.target().getBounds());
        BufferedImage shot = new java.awt.Robot().createScreenCapture(bounds);
        Path out = Files.createDirectories(Path.of(System.getProperty("screenshots.dir", "target/screenshots")));
        ImageIO.write(shot, "png", out.resolve(name + ".png").toFile());
    }
}
