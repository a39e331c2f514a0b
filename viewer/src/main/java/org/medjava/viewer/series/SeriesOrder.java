package org.medjava.viewer.series;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.medjava.viewer.store.SliceInfo;

/**
 * Orders a series' instances into a stack as a reader scrolls it, by the rule the web viewer uses
 * ({@code byPosition} in {@code web/src/viewer/series.js}) and OHIF's stack does: InstanceNumber ascending
 * (instances without one last); where numbers tie or are missing, ImagePositionPatient's z ascending when both have a
 * position; then the SOP Instance UID (then the store path). So instance 1 is image 1 in every viewer of the store,
 * whichever way the slices' geometry runs. Multi-frame instances contribute one item per frame.
 */
public final class SeriesOrder {
    /** What the order was taken from, for the status bar. */
    public enum Basis {
        INSTANCE_NUMBER("InstanceNumber"), POSITION("ImagePositionPatient"), UID("SOP Instance UID");

        private final String label;

        Basis(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** The ordered stack and what ordered it. */
    public record Ordered(List<StackItem> items, Basis basis) {
        public Ordered {
            items = List.copyOf(items);
        }

        /** The index of {@code path}'s frame {@code frame}, or -1. */
        public int indexOf(String path, int frame) {
            for (int i = 0; i < items.size(); i++) {
                if (items.get(i).path().equals(path) && items.get(i).frame() == frame) {
                    return i;
                }
            }
            return -1;
        }
    }

    private SeriesOrder() {
    }

    public static Ordered order(List<SliceInfo> slices) {
        List<SliceInfo> sorted = new ArrayList<>(slices);
        sorted.sort(RULE);
        List<StackItem> items = new ArrayList<>();
        for (SliceInfo s : sorted) {
            for (int f = 0; f < s.frames(); f++) {
                items.add(new StackItem(s.path(), f, s.instanceNumber()));
            }
        }
        return new Ordered(items, basis(slices));
    }

    /** The web viewer's rule (see the class comment). */
    static final Comparator<SliceInfo> RULE = Comparator.comparing(SliceInfo::instanceNumber,
            Comparator.nullsLast(Comparator.<Integer>naturalOrder()))
            // those without a position after those with one: the web's "0 unless both have one" is not transitive
            .thenComparing(s -> s.position() == null ? null : s.position()[2],
                    Comparator.nullsLast(Comparator.<Double>naturalOrder()))
            .thenComparing(s -> s.sopInstanceUid() == null ? "" : s.sopInstanceUid())
            .thenComparing(SliceInfo::path);

    /** What decided the order: the numbers when they are all there and distinct, else what broke their ties. */
    private static Basis basis(List<SliceInfo> slices) {
        if (slices.stream().allMatch(s -> s.instanceNumber() != null)
                && slices.stream().map(SliceInfo::instanceNumber).distinct().count() == slices.size()) {
            return Basis.INSTANCE_NUMBER;
        }
        return slices.stream().allMatch(s -> s.position() != null) ? Basis.POSITION : Basis.UID;
    }

    /** The frames of one multi-frame object, as a stack. */
    public static Ordered frames(String path, Integer instanceNumber, int frames) {
        List<StackItem> items = new ArrayList<>();
        for (int f = 0; f < Math.max(1, frames); f++) {
            items.add(new StackItem(path, f, instanceNumber));
        }
        return new Ordered(items, Basis.INSTANCE_NUMBER);
    }
}
