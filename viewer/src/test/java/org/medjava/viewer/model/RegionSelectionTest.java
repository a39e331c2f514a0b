package org.medjava.viewer.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.geom.Point2D;
import org.junit.jupiter.api.Test;
import org.medjava.filter.Region;

class RegionSelectionTest {

    @Test
    void coversBothCornerPixelsWhicheverWayTheDragWent() {
        Region forward = RegionSelection.between(new Point2D.Double(10.2, 20.7), new Point2D.Double(30.9, 40.1), 100,
                100);
        Region backward = RegionSelection.between(new Point2D.Double(30.9, 40.1), new Point2D.Double(10.2, 20.7), 100,
                100);
        assertThat(forward).isEqualTo(new Region(10, 20, 21, 21)).isEqualTo(backward);
    }

    @Test
    void isClippedToTheImage() {
        assertThat(RegionSelection.between(new Point2D.Double(-50, -5), new Point2D.Double(20, 300), 64, 48))
                .isEqualTo(new Region(0, 0, 21, 48));
    }

    @Test
    void isNullOutsideTheImage() {
        assertThat(RegionSelection.between(new Point2D.Double(-50, -50), new Point2D.Double(-10, -1), 64, 48))
                .isNull();
        assertThat(RegionSelection.between(new Point2D.Double(70, 10), new Point2D.Double(90, 20), 64, 48)).isNull();
    }
}
