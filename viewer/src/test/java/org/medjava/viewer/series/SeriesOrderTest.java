package org.medjava.viewer.series;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SeriesOrderTest {
    private static final double[] AXIAL = {1, 0, 0, 0, 1, 0};
    private static final double[] SAGITTAL = {0, 1, 0, 0, 0, -1};

    private static SliceInfo slice(String path, Integer number, double[] position, double[] orientation) {
        return new SliceInfo(path, "uid-" + path, number, position, orientation, 1);
    }

    private static List<String> paths(SeriesOrder.Ordered o) {
        return o.items().stream().map(StackItem::path).toList();
    }

    @Test
    void axialSlicesFollowTheirPositionAlongTheNormalNotTheirInstanceNumbers() {
        // Instance Numbers run the other way (acquired head first), and one is missing
        var ordered = SeriesOrder.order(List.of(
                slice("c", 1, new double[] {0, 0, 30}, AXIAL),
                slice("a", 3, new double[] {0, 0, -10}, AXIAL),
                slice("b", null, new double[] {0, 0, 10}, AXIAL)));
        assertThat(ordered.basis()).isEqualTo(SeriesOrder.Basis.POSITION);
        assertThat(paths(ordered)).containsExactly("a", "b", "c");
    }

    @Test
    void sagittalSlicesAreOrderedAlongTheirOwnNormal() {
        // normal of rows (0,1,0) × columns (0,0,-1) is (-1,0,0): larger x comes first
        var ordered = SeriesOrder.order(List.of(
                slice("left", 1, new double[] {50, 0, 0}, SAGITTAL),
                slice("right", 2, new double[] {-50, 0, 0}, SAGITTAL),
                slice("mid", 3, new double[] {0, 0, 0}, SAGITTAL)));
        assertThat(paths(ordered)).containsExactly("left", "mid", "right");
    }

    @Test
    void withoutCompleteGeometryInstanceNumbersOrder() {
        var ordered = SeriesOrder.order(List.of(
                slice("x", 10, new double[] {0, 0, 1}, AXIAL),
                slice("y", 2, null, null),
                slice("z", 7, new double[] {0, 0, 3}, AXIAL)));
        assertThat(ordered.basis()).isEqualTo(SeriesOrder.Basis.INSTANCE_NUMBER);
        assertThat(paths(ordered)).containsExactly("y", "z", "x");
    }

    @Test
    void mixedOrientationsOrAllAtOnePositionFallBackToInstanceNumbers() {
        var mixed = SeriesOrder.order(List.of(
                slice("b", 2, new double[] {0, 0, 1}, AXIAL),
                slice("a", 1, new double[] {0, 0, 9}, SAGITTAL)));
        assertThat(mixed.basis()).isEqualTo(SeriesOrder.Basis.INSTANCE_NUMBER);
        assertThat(paths(mixed)).containsExactly("a", "b");
        var samePlace = SeriesOrder.order(List.of(
                slice("t2", 2, new double[] {0, 0, 5}, AXIAL),
                slice("t1", 1, new double[] {0, 0, 5}, AXIAL)));
        assertThat(samePlace.basis()).isEqualTo(SeriesOrder.Basis.INSTANCE_NUMBER);
        assertThat(paths(samePlace)).containsExactly("t1", "t2");
    }

    @Test
    void withoutInstanceNumbersThePathOrdersAndNumberedOnesComeFirst() {
        var ordered = SeriesOrder.order(List.of(slice("b", null, null, null), slice("a", null, null, null),
                slice("c", 1, null, null)));
        assertThat(ordered.basis()).isEqualTo(SeriesOrder.Basis.PATH);
        assertThat(paths(ordered)).containsExactly("c", "a", "b");
    }

    @Test
    void multiFrameInstancesBecomeOneItemPerFrame() {
        var ordered = SeriesOrder.order(List.of(new SliceInfo("mf", "u2", 2, null, null, 3),
                new SliceInfo("single", "u1", 1, null, null, 1)));
        assertThat(ordered.items()).containsExactly(new StackItem("single", 0, 1), new StackItem("mf", 0, 2),
                new StackItem("mf", 1, 2), new StackItem("mf", 2, 2));
        assertThat(ordered.indexOf("mf", 1)).isEqualTo(2);
        assertThat(ordered.indexOf("nope", 0)).isEqualTo(-1);
        assertThat(SeriesOrder.frames("cine", 4, 5).items()).hasSize(5).last()
                .isEqualTo(new StackItem("cine", 4, 4));
    }
}
