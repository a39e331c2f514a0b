package org.medjava.viewer.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.event.KeyEvent;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.medjava.viewer.image.SyntheticDicom;

/**
 * A measurement, not a test of speed (run on demand, see docs/viewer.md "Series and stacks"): a synthetic CT series
 * of {@code medjava.measure.series} slices of 512×512 16-bit is stored, opened from the thumbnail strip (time to
 * first image: the click's action to the image on screen) and scrolled end to end with the Down key, an image at a
 * time as fast as they are shown. Prints and writes to {@code target/series-measure.txt}: the heap in use after a
 * GC before opening, its largest value after a GC every 25 images while scrolling, the largest the cache held and
 * its budget, the process's resident memory, and the mean time per image.
 */
@EnabledIfSystemProperty(named = "medjava.measure.series", matches = "[0-9]+")
class SeriesMemoryGuiIT extends ViewerGuiFixture {
    private static final String UIDS = "1.2.826.0.1.3680043.9.7421.1919";
    private static final int SIZE = 512;

    private static long usedAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long residentBytes() throws java.io.IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        return -1;
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
    }

    @Test
    @Timeout(1800)
    void scrollAWholeCtSeries() throws Exception {
        int slices = Integer.parseInt(System.getProperty("medjava.measure.series"));
        String series = UIDS + "." + slices + ".2";
        String dir = "uploads/series-measure-" + slices + "/";
        for (int i = 1; i <= slices; i++) {
            putDicom(dir + "ct-" + i + ".dcm", SyntheticDicom.stackCt(SIZE, UIDS + "." + slices, series, i, i * 1.25));
        }
        putDicom(dir + "other.dcm", SyntheticDicom.stackCt(SIZE, UIDS + "." + slices, series + "9", 1, 0));
        startViewerAsAdmin(null);
        // the strip comes with an image of the study: open the other series' one, then measure from the strip
        viewer.openFromTree(dir + "other.dcm");
        viewer.await("the strip lists the series", () -> viewer.frame.seriesView().strip().button(series) != null);
        viewer.awaitIdle();
        StackController stack = viewer.frame.seriesView().stack();
        ImageView view = viewer.frame.imageView();
        long before = usedAfterGc();

        long[] clicked = new long[1];
        long[] shown = new long[1];
        viewer.onEdt(() -> {
            clicked[0] = System.nanoTime();
            viewer.frame.seriesView().strip().button(series).doClick();
            return null;
        });
        while (!viewer.onEdt(() -> series.equals(stack.seriesUid()) && stack.index() == 0 && view.image() != null
                && viewer.frame.document().image().dicom().attributes().seriesInstanceUid().equals(series))) {
            Thread.sleep(2);
        }
        shown[0] = System.nanoTime();
        long firstImageMs = (shown[0] - clicked[0]) / 1_000_000;

        viewer.onEdt(() -> view.requestFocusInWindow());
        viewer.await("the image has the focus", view::isFocusOwner);
        long peakUsed = 0;
        long peakCache = 0;
        long started = System.nanoTime();
        for (int i = 1; i < slices; i++) {
            viewer.robot.pressAndReleaseKeys(KeyEvent.VK_DOWN);
            int index = i;
            while (!viewer.onEdt(() -> stack.index() == index)) {
                Thread.sleep(1);
            }
            peakCache = Math.max(peakCache, viewer.onEdt(stack::cachedBytes));
            if (i % 25 == 0 || i == slices - 1) {
                peakUsed = Math.max(peakUsed, usedAfterGc());
            }
        }
        double perImageMs = (System.nanoTime() - started) / 1e6 / (slices - 1);
        String loads = viewer.onEdt(stack::loadTimes);
        // back up through images the cache still holds: the display path alone
        int back = Math.min(100, slices - 1);
        long backStarted = System.nanoTime();
        for (int i = 1; i <= back; i++) {
            viewer.robot.pressAndReleaseKeys(KeyEvent.VK_UP);
            int index = slices - 1 - i;
            while (!viewer.onEdt(() -> stack.index() == index)) {
                Thread.sleep(1);
            }
        }
        double cachedPerImageMs = (System.nanoTime() - backStarted) / 1e6 / back;
        long rss = residentBytes();
        String report = String.format(Locale.ROOT, "series of %d CT slices %dx%d 16-bit (%s of files)%n"
                        + "time to first image (thumbnail click to image on screen): %d ms%n"
                        + "heap in use after GC: before opening %s, largest while scrolling %s (+%s)%n"
                        + "stack cache: largest %s of its %s budget%n"
                        + "process resident memory after scrolling: %s (max heap %s)%n"
                        + "scrolling end to end with the Down key: %.1f ms an image (robot key events included)%n"
                        + "prefetch: %s%n"
                        + "scrolling back %d cached images with the Up key: %.1f ms an image%n",
                slices, SIZE, SIZE, mib((long) slices * SIZE * SIZE * 2), firstImageMs, mib(before), mib(peakUsed),
                mib(peakUsed - before), mib(peakCache), mib(StackController.defaultBudget()), mib(rss),
                mib(Runtime.getRuntime().maxMemory()), perImageMs, loads, back, cachedPerImageMs);
        System.out.print(report);
        Files.writeString(Path.of("target", "series-measure.txt"), report);
        assertThat(peakCache).isLessThanOrEqualTo(StackController.defaultBudget());
    }
}
