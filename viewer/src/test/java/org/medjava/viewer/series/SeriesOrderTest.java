package org.medjava.viewer.series;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.medjava.viewer.store.SliceInfo;

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
    void instanceNumbersOrderWhateverTheGeometrySaysAsInTheWebViewer() {
        // positions run against the numbers (acquired head first): instance 1 is still image 1, as in web and OHIF
        var ordered = SeriesOrder.order(List.of(
                slice("c", 3, new double[] {0, 0, -10}, AXIAL),
                slice("a", 1, new double[] {0, 0, 30}, AXIAL),
                slice("b", 2, new double[] {0, 0, 10}, AXIAL)));
        assertThat(ordered.basis()).isEqualTo(SeriesOrder.Basis.INSTANCE_NUMBER);
        assertThat(paths(ordered)).containsExactly("a", "b", "c");
        var sagittal = SeriesOrder.order(List.of(
                slice("right", 2, new double[] {-50, 0, 0}, SAGITTAL),
                slice("left", 1, new double[] {50, 0, 0}, SAGITTAL)));
        assertThat(paths(sagittal)).containsExactly("left", "right");
    }

    @Test
    void tiedOrMissingNumbersGoByZThenBySopInstanceUid() {
        var ordered = SeriesOrder.order(List.of(
                slice("x", null, new double[] {0, 0, 1}, AXIAL),
                slice("t2", 5, new double[] {0, 0, 9}, AXIAL),
                slice("t1", 5, new double[] {0, 0, -3}, AXIAL),
                slice("b", null, null, null),
                slice("a", null, null, null),
                slice("first", 1, null, null)));
        assertThat(paths(ordered)).containsExactly("first", "t1", "t2", "x", "a", "b");
        assertThat(ordered.basis()).isEqualTo(SeriesOrder.Basis.UID);
        var samePlace = SeriesOrder.order(List.of(
                slice("t2", 2, new double[] {0, 0, 5}, AXIAL),
                slice("t1", 1, new double[] {0, 0, 5}, AXIAL)));
        assertThat(paths(samePlace)).containsExactly("t1", "t2");
        var unnumbered = SeriesOrder.order(List.of(slice("up", null, new double[] {0, 0, 5}, AXIAL),
                slice("down", null, new double[] {0, 0, -5}, AXIAL)));
        assertThat(unnumbered.basis()).isEqualTo(SeriesOrder.Basis.POSITION);
        assertThat(paths(unnumbered)).containsExactly("down", "up");
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
