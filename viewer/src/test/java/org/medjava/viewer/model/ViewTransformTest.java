package org.medjava.viewer.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.awt.Point;
import java.awt.Rectangle;
import java.awt.geom.Point2D;
import org.junit.jupiter.api.Test;

class ViewTransformTest {

    @Test
    void fitScalesTheLongerSideAndCentres() {
        ViewTransform t = new ViewTransform();
        t.fit(800, 600, 1760, 1760);
        assertThat(t.scale()).isCloseTo(600 / 1760.0, within(1e-9));
        assertThat(t.originY()).isCloseTo(0, within(1e-9));
        assertThat(t.originX()).isCloseTo((800 - 600) / 2.0, within(1e-9));
    }

    @Test
    void zoomKeepsThePointUnderTheMouse() {
        ViewTransform t = new ViewTransform();
        t.fit(800, 600, 400, 300);
        Point anchor = new Point(123, 456);
        Point2D.Double before = t.toImage(anchor.x, anchor.y);
        t.zoom(3, anchor);
        Point2D.Double after = t.toImage(anchor.x, anchor.y);
        assertThat(after.x).isCloseTo(before.x, within(1e-9));
        assertThat(after.y).isCloseTo(before.y, within(1e-9));
        assertThat(t.scale()).isCloseTo(6, within(1e-9));
    }

    @Test
    void zoomIsBounded() {
        ViewTransform t = new ViewTransform();
        t.zoom(1e9, new Point(0, 0));
        assertThat(t.scale()).isEqualTo(ViewTransform.MAX_SCALE);
        t.zoom(1e-12, new Point(0, 0));
        assertThat(t.scale()).isEqualTo(ViewTransform.MIN_SCALE);
    }

    @Test
    void panAndActualSizeMapPixelsOneToOne() {
        ViewTransform t = new ViewTransform();
        t.actualSize(100, 100, 50, 50);
        t.pan(10, -5);
        assertThat(t.toView(0, 0, 50, 50)).isEqualTo(new Rectangle(35, 20, 50, 50));
        assertThat(t.toImage(35, 20)).isEqualTo(new Point2D.Double(0, 0));
    }
}
