package org.medjava.viewer.model;

import java.util.List;
import org.medjava.codec.dicom.Window;

/**
 * Window/level by mouse drag, as radiologists expect: dragging right widens the window (less contrast), dragging
 * down raises the level (center), so the image darkens. One pixel of drag moves by {@link #sensitivity}, scaled to
 * the image's modality range so a CT (thousands of HU) and an 8-bit image both feel the same.
 */
public final class WindowLevel {
    /**
     * The usual CT presets (center, width in Hounsfield units): the web viewer's list ({@code CT} in
     * {@code web/src/viewer/presets.js}), in its order and with its windows, each name prefixed "CT ";
     * {@code CtPresetsTest} reads that file and fails when the two differ.
     */
    public static final List<Preset> CT_PRESETS = List.of(
            new Preset("CT soft tissue", new Window(40, 400)),
            new Preset("CT lung", new Window(-600, 1500)),
            new Preset("CT bone", new Window(400, 1800)),
            new Preset("CT brain", new Window(40, 80)),
            new Preset("CT subdural", new Window(75, 215)),
            new Preset("CT stroke", new Window(40, 40)),
            new Preset("CT mediastinum", new Window(50, 350)),
            new Preset("CT abdomen", new Window(60, 400)),
            new Preset("CT liver", new Window(60, 160)));

    /** A named window. */
    public record Preset(String name, Window window) {
        @Override
        public String toString() {
            return name + " (" + format(window) + ")";
        }
    }

    private final double sensitivity;

    /** @param modalityRange max minus min of the image's modality values (at least 1) */
    public WindowLevel(double modalityRange) {
        this.sensitivity = Math.max(modalityRange, 1) / 512.0;
    }

    public double sensitivity() {
        return sensitivity;
    }

    /** The window after a drag of {@code dx, dy} screen pixels from {@code start}. Width never drops below 1. */
    public Window drag(Window start, int dx, int dy) {
        double width = Math.max(1, start.width() + dx * sensitivity);
        double center = start.center() + dy * sensitivity;
        return new Window(round(center), round(width));
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    /** {@code "C 40 W 400"}, the corner overlay's form. */
    public static String format(Window w) {
        return "C " + number(w.center()) + " W " + number(w.width());
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(java.util.Locale.ROOT, "%.1f", v);
    }
}
