package org.medjava.viewer.ui;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.swing.SwingUtilities;
import javax.swing.Timer;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.viewer.image.ImageOrigin;
import org.medjava.viewer.image.OpenedImage;
import org.medjava.viewer.series.ByteBoundedCache;
import org.medjava.viewer.series.Prefetcher;
import org.medjava.viewer.series.SeriesOrder;
import org.medjava.viewer.series.StackItem;
import org.medjava.viewer.store.Download;
import org.medjava.viewer.store.IndexRows;
import org.medjava.viewer.store.StoreClient;

/**
 * The open stack: a store series in scrolling order (or the frames of one multi-frame object), the image on screen
 * and its neighbours prefetched into a cache bounded in bytes ({@link Prefetcher}), and cine. Scrolling shows a
 * cached image at once and asks for the others; a load that finishes after the reader moved on is not shown.
 * Everything here runs on the event thread except the loads. Window, zoom and pan are the host's: it keeps them.
 */
final class StackController {
    /** Images on each side of the one shown that are loaded ahead, at most (fewer when the cache is small). */
    static final int MAX_REACH = 12;
    private static final int PREFETCH_THREADS = 2;
    /** A decoded image's header, object and arrays beyond its pixels, roughly. */
    private static final long OVERHEAD = 16 * 1024;

    /** What the stack tells the window it lives in. */
    interface Host {
        /** Whether the image on screen may be replaced (false while it carries filters, with a message why). */
        boolean maySwitchImage();

        /**
         * Shows {@code image}, item {@code index} of {@code count}: keeping window, zoom and pan while scrolling;
         * {@code first} (a series just opened) with the image's own window, fitted.
         */
        void showSlice(OpenedImage image, int index, int count, boolean first);

        /** The stack changed (opened, closed, moved): overlays and controls follow. */
        void stackChanged();

        void message(String text);
    }

    /** A decoded image and what it costs in memory. */
    record Slice(OpenedImage image, long bytes) {
    }

    private final Tasks tasks;
    private final Host host;
    private final long budgetBytes;
    private final AtomicInteger threads = new AtomicInteger();
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "stack-prefetch-" + threads.incrementAndGet());
        t.setDaemon(true);
        t.setPriority(Thread.NORM_PRIORITY - 1);
        return t;
    });
    private final Timer cine = new Timer(100, e -> cineTick());
    private final java.util.concurrent.atomic.AtomicLong downloadNanos = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong decodeNanos = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong storeLoads = new java.util.concurrent.atomic.AtomicLong();
    /** The last file a store load downloaded {path, Download}: one file beyond the cache's budget, at most. */
    private final java.util.concurrent.atomic.AtomicReference<Object[]> lastFile =
            new java.util.concurrent.atomic.AtomicReference<>();
    private SeriesOrder.Ordered stack;
    private Prefetcher<Slice> prefetcher;
    private String studyUid = "";
    private String seriesUid = "";
    private int shown = -1;
    /** The image of item {@code shown}, as handed to the host or adopted. */
    private OpenedImage current;
    private int wanted = -1;
    private int generation;

    StackController(Tasks tasks, Host host, long budgetBytes) {
        this.tasks = tasks;
        this.host = host;
        this.budgetBytes = budgetBytes;
    }

    /** The system property that sets the stack cache's budget in MiB. */
    static final String BUDGET_PROPERTY = "medjava.viewer.stack-cache-mb";

    /**
     * The cache's budget: {@value #BUDGET_PROPERTY} MiB when set, else an eighth of the heap, at most 256 MiB (the
     * undo history may take a quarter); 256 MiB hold about 170 CT slices of 512×512.
     */
    static long defaultBudget() {
        String mib = System.getProperty(BUDGET_PROPERTY);
        if (mib != null && mib.trim().matches("[0-9]{1,6}") && Long.parseLong(mib.trim()) > 0) {
            return Long.parseLong(mib.trim()) << 20;
        }
        return Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 8);
    }

    // ------------------------------------------------------------------ opening

    /**
     * An image was opened on its own (tree, search, disk): a store DICOM image brings its series as a stack, a
     * multi-frame object its frames; anything else closes the stack. Event thread.
     */
    void opened(StoreClient client, OpenedImage image) {
        if (!image.isDicom()) {
            close();
            return;
        }
        DicomImage d = image.dicom();
        String study = d.attributes().studyInstanceUid();
        String series = d.attributes().seriesInstanceUid();
        if (image.origin() instanceof ImageOrigin.StoreFile f && client != null && !series.isBlank()) {
            if (series.equals(seriesUid) && adopt(image)) {
                return; // another image of the open series
            }
            close(); // the old stack must not scroll away from this image while its series is listed
            int mine = ++generation;
            tasks.background(p -> client.seriesSlices(study, series), slices -> {
                if (mine != generation) {
                    return;
                }
                SeriesOrder.Ordered ordered = SeriesOrder.order(slices);
                int at = ordered.indexOf(f.path(), d.frame());
                if (at < 0) { // not indexed (yet): its frames at least
                    ordered = SeriesOrder.frames(f.path(), null, d.frameCount());
                    at = d.frame();
                }
                start(ordered, study, series, storeLoader(client, ordered), image, at);
            }, e -> {
                if (mine == generation) {
                    host.message("The series could not be listed (" + e.getMessage() + "); showing this image only");
                    startFrames(image);
                }
            });
            return;
        }
        startFrames(image);
    }

    /** Opens a store series as a stack at its first image (the thumbnail strip). Event thread. */
    void openSeries(StoreClient client, String study, String series) {
        if (!host.maySwitchImage()) {
            return;
        }
        int mine = ++generation;
        host.message("Opening series " + series + "…");
        tasks.background(p -> SeriesOrder.order(client.seriesSlices(study, series)), ordered -> {
            if (mine != generation) {
                return;
            }
            if (ordered.items().isEmpty()) {
                host.message("The series has no images in the index");
                return;
            }
            start(ordered, study, series, storeLoader(client, ordered), null, 0);
        }, e -> host.message("Could not open the series: " + e.getMessage()));
    }

    private void startFrames(OpenedImage image) {
        int frames = image.isDicom() ? image.dicom().frameCount() : 1;
        if (frames < 2) {
            close();
            return;
        }
        ++generation;
        SeriesOrder.Ordered ordered = SeriesOrder.frames(key(image), null, frames);
        start(ordered, "", "", (i, p) -> {
            OpenedImage frame = image.frame(ordered.items().get(i).frame());
            return new Slice(frame, decodedBytes(frame)); // the file is the open image's, counted once
        }, image, image.dicom().frame());
    }

    private void start(SeriesOrder.Ordered ordered, String study, String series, Prefetcher.Loader<Slice> loader,
                       OpenedImage first, int at) {
        closePrefetcher();
        stack = ordered;
        studyUid = study;
        seriesUid = series;
        int mine = generation;
        ByteBoundedCache<Integer, Slice> cache = new ByteBoundedCache<>(budgetBytes, Slice::bytes);
        prefetcher = new Prefetcher<>(ordered.items().size(), 1, PREFETCH_THREADS, cache, loader,
                new Prefetcher.Listener<>() {
                    @Override
                    public void loaded(int index, Slice value) {
                        SwingUtilities.invokeLater(() -> arrived(mine, index, value));
                    }

                    @Override
                    public void failed(int index, Exception e) {
                        SwingUtilities.invokeLater(() -> {
                            if (mine == generation && index == wanted) {
                                host.message("Image " + (index + 1) + " of the stack could not be loaded: "
                                        + e.getMessage());
                            }
                        });
                    }
                }, pool);
        if (first != null) {
            Slice s = slice(first, ordered);
            current = first;
            cache.put(at, s);
            prefetcher.setReach(reachFor(s.bytes()));
            shown = at;
            wanted = at;
            prefetcher.focus(at);
        } else {
            shown = -1;
            wanted = at;
            prefetcher.focus(at);
        }
        host.stackChanged();
    }

    private Prefetcher.Loader<Slice> storeLoader(StoreClient client, SeriesOrder.Ordered ordered) {
        String server = client.base().toString();
        return (i, progress) -> {
            StackItem item = ordered.items().get(i);
            long start = System.nanoTime();
            // the frames of one multi-frame file: downloaded once, not once a frame
            Object[] last = lastFile.get();
            Download d = last != null && last[0].equals(item.path()) ? (Download) last[1]
                    : client.download(item.path(), progress);
            lastFile.set(new Object[] {item.path(), d});
            long downloaded = System.nanoTime();
            OpenedImage image = OpenedImage.decode(new ImageOrigin.StoreFile(server, item.path(), d.etag()),
                    d.bytes());
            if (item.frame() > 0) {
                image = image.frame(item.frame());
            }
            downloadNanos.addAndGet(downloaded - start);
            decodeNanos.addAndGet(System.nanoTime() - downloaded);
            storeLoads.incrementAndGet();
            return new Slice(image, decodedBytes(image) + d.bytes().length);
        };
    }

    /** Mean download and decode milliseconds of the store loads so far, for measurements. */
    String loadTimes() {
        long n = Math.max(1, storeLoads.get());
        return String.format(java.util.Locale.ROOT, "%d loads: download %.1f ms, decode %.1f ms on average",
                storeLoads.get(), downloadNanos.get() / 1e6 / n, decodeNanos.get() / 1e6 / n);
    }

    private Slice slice(OpenedImage image, SeriesOrder.Ordered ordered) {
        boolean ownFile = image.origin() instanceof ImageOrigin.StoreFile && image.dicomFile() != null
                && !ordered.items().isEmpty() && ordered.items().stream().map(StackItem::path).distinct().count() > 1;
        return new Slice(image, decodedBytes(image) + (ownFile ? image.dicomFile().length : 0));
    }

    /** The decoded pixels: 4 bytes a stored value (grey), 3 a pixel (colour). */
    static long decodedBytes(OpenedImage image) {
        long pixels = (long) image.width() * image.height();
        return OVERHEAD + pixels * (image.isGreyDicom() ? 4 : 3);
    }

    /** As many neighbours on each side as fit in half the cache (the rest holds the images scrolled past). */
    int reachFor(long sliceBytes) {
        long fit = budgetBytes / Math.max(1, sliceBytes);
        return (int) Math.max(0, Math.min(MAX_REACH, (fit / 2 - 1) / 2));
    }

    private void arrived(int mine, int index, Slice value) {
        if (mine != generation || prefetcher == null) {
            return;
        }
        if (prefetcher.reach() <= 1 && index == wanted) {
            prefetcher.setReach(reachFor(value.bytes()));
        }
        if (index == wanted && index != shown) {
            show(index, value);
        }
        host.stackChanged();
    }

    // ------------------------------------------------------------------ moving

    boolean isOpen() {
        return stack != null && stack.items().size() > 1;
    }

    int count() {
        return stack == null ? 0 : stack.items().size();
    }

    /** The index shown (from 0), or -1. */
    int index() {
        return shown;
    }

    /** Whether {@code image} is the one the stack last showed or adopted. */
    boolean isCurrent(OpenedImage image) {
        return image == current;
    }

    /** The index asked for last (shown, or loading). */
    int wanted() {
        return wanted;
    }

    String seriesUid() {
        return seriesUid;
    }

    String studyUid() {
        return studyUid;
    }

    SeriesOrder.Basis basis() {
        return stack == null ? null : stack.basis();
    }

    /** How the stack names an image's file: its store path, or a local file's name. */
    static String key(OpenedImage image) {
        return image.origin() instanceof ImageOrigin.StoreFile f ? f.path() : image.origin().name();
    }

    /**
     * Takes {@code image}, shown by someone else (the tree, the frame spinner), as the stack's current image when it
     * is one of the stack's; false otherwise. Event thread.
     */
    boolean adopt(OpenedImage image) {
        if (stack == null || prefetcher == null || !image.isDicom()) {
            return false;
        }
        int at = stack.indexOf(key(image), image.dicom().frame());
        if (at < 0) {
            return false;
        }
        current = image;
        if (at != shown || at != wanted) {
            shown = at;
            wanted = at;
            prefetcher.cache().put(at, slice(image, stack));
            prefetcher.focus(at);
            host.stackChanged();
        }
        return true;
    }

    /** Moves by {@code delta} images, stopping at the ends. Event thread. */
    void step(int delta) {
        if (isOpen()) {
            go(Math.max(0, Math.min(count() - 1, (wanted < 0 ? 0 : wanted) + delta)));
        }
    }

    /** Moves to image {@code index} (from 0). Event thread. */
    void go(int index) {
        if (!isOpen() || index < 0 || index >= count() || index == wanted) {
            return;
        }
        if (!host.maySwitchImage()) {
            stopCine();
            return;
        }
        wanted = index;
        prefetcher.focus(index);
        Slice s = prefetcher.cache().get(index);
        if (s != null) {
            show(index, s);
        }
        host.stackChanged();
    }

    private void show(int index, Slice s) {
        boolean first = shown < 0;
        shown = index;
        current = s.image();
        host.showSlice(s.image(), index, count(), first);
    }

    // ------------------------------------------------------------------ cine

    boolean cineRunning() {
        return cine.isRunning();
    }

    /** Plays the stack at {@code fps} images a second, from the image shown, wrapping at the end. */
    void startCine(double fps) {
        if (!isOpen()) {
            return;
        }
        setCineRate(fps);
        cine.start();
        host.stackChanged();
    }

    void setCineRate(double fps) {
        int delay = (int) Math.max(1, Math.round(1000 / Math.max(0.5, Math.min(60, fps))));
        cine.setDelay(delay);
        cine.setInitialDelay(delay);
    }

    void stopCine() {
        if (cine.isRunning()) {
            cine.stop();
            host.stackChanged();
        }
    }

    private void cineTick() {
        if (!isOpen()) {
            stopCine();
            return;
        }
        if (shown != wanted) {
            return; // the last image is still loading: wait for it rather than skip ahead of the loads
        }
        int next = wanted + 1 >= count() ? 0 : wanted + 1;
        go(next);
    }

    // ------------------------------------------------------------------ cache facts and closing

    /** "42 images cached, 63 MiB of 128 MiB", for the stack bar. */
    String cacheFacts() {
        if (prefetcher == null) {
            return "";
        }
        ByteBoundedCache<Integer, Slice> c = prefetcher.cache();
        return c.size() + " cached, " + (c.bytes() >> 20) + " of " + (c.maxBytes() >> 20) + " MiB";
    }

    /** The cache's bytes now (for tests and measurements). */
    long cachedBytes() {
        return prefetcher == null ? 0 : prefetcher.cache().bytes();
    }

    Prefetcher<Slice> prefetcher() {
        return prefetcher;
    }

    /** No stack any more (a non-DICOM image, or a single image). Event thread. */
    void close() {
        ++generation;
        stopCine();
        closePrefetcher();
        boolean was = stack != null;
        stack = null;
        current = null;
        studyUid = "";
        seriesUid = "";
        shown = -1;
        wanted = -1;
        if (was) {
            host.stackChanged();
        }
    }

    private void closePrefetcher() {
        lastFile.set(null);
        if (prefetcher != null) {
            prefetcher.close();
            prefetcher.cache().clear();
            prefetcher = null;
        }
    }

    void shutdown() {
        close();
        pool.shutdownNow();
    }

    /** The study's series for the thumbnail strip, listed off the event thread. */
    void studySeries(StoreClient client, String study, java.util.function.Consumer<List<IndexRows.Series>> done) {
        tasks.background(p -> client.series(study), done, e -> host.message("The study's series could not be listed: "
                + e.getMessage()));
    }
}
