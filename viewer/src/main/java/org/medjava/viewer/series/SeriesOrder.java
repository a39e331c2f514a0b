package org.medjava.viewer.series;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Orders a series' instances into a stack as a reader scrolls it: along the slice normal by ImagePositionPatient
 * when every instance has a position and they share one orientation (the geometry, which Instance Numbers need not
 * follow), else by InstanceNumber, else by store path. Multi-frame instances contribute one item per frame.
 */
public final class SeriesOrder {
    /** Orientations closer than this (direction cosines) count as the same plane. */
    private static final double SAME_ORIENTATION = 1e-4;

    /** What the order was taken from, for the status bar. */
    public enum Basis {
        POSITION("ImagePositionPatient"), INSTANCE_NUMBER("InstanceNumber"), PATH("store path");

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
        Basis basis = byPosition(slices) ? Basis.POSITION
                : slices.stream().allMatch(s -> s.instanceNumber() != null) && !slices.isEmpty() ? Basis.INSTANCE_NUMBER
                : Basis.PATH;
        Comparator<SliceInfo> byNumber = Comparator.comparing(SliceInfo::instanceNumber,
                Comparator.nullsLast(Comparator.naturalOrder()));
        Comparator<SliceInfo> byPath = Comparator.comparing(SliceInfo::path);
        Comparator<SliceInfo> order = switch (basis) {
            case POSITION -> {
                double[] normal = normal(slices.get(0).orientation());
                yield Comparator.<SliceInfo>comparingDouble(s -> dot(s.position(), normal)).thenComparing(byNumber)
                        .thenComparing(byPath);
            }
            case INSTANCE_NUMBER, PATH -> byNumber.thenComparing(byPath);
        };
        List<SliceInfo> sorted = new ArrayList<>(slices);
        sorted.sort(order);
        List<StackItem> items = new ArrayList<>();
        for (SliceInfo s : sorted) {
            for (int f = 0; f < s.frames(); f++) {
                items.add(new StackItem(s.path(), f, s.instanceNumber()));
            }
        }
        return new Ordered(items, basis);
    }

    /** The frames of one multi-frame object, as a stack. */
    public static Ordered frames(String path, Integer instanceNumber, int frames) {
        List<StackItem> items = new ArrayList<>();
        for (int f = 0; f < Math.max(1, frames); f++) {
            items.add(new StackItem(path, f, instanceNumber));
        }
        return new Ordered(items, Basis.INSTANCE_NUMBER);
    }

    private static boolean byPosition(List<SliceInfo> slices) {
        if (slices.size() < 2) {
            return false;
        }
        double[] first = slices.get(0).orientation();
        if (first == null || norm(normal(first)) < 0.5) {
            return false;
        }
        for (SliceInfo s : slices) {
            double[] o = s.orientation();
            if (s.position() == null || o == null) {
                return false;
            }
            for (int i = 0; i < 6; i++) {
                if (Math.abs(o[i] - first[i]) > SAME_ORIENTATION) {
                    return false;
                }
            }
        }
        double[] normal = normal(first);
        // all at one position (e.g. a time series at one slice): the geometry says nothing about the order
        return slices.stream().mapToDouble(s -> dot(s.position(), normal)).distinct().count() > 1;
    }

    /** The slice normal: the row direction × the column direction. */
    static double[] normal(double[] o) {
        return new double[] {o[1] * o[5] - o[2] * o[4], o[2] * o[3] - o[0] * o[5], o[0] * o[4] - o[1] * o[3]};
    }

    private static double dot(double[] a, double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }

    private static double norm(double[] a) {
        return Math.sqrt(dot(a, a));
    }
}
