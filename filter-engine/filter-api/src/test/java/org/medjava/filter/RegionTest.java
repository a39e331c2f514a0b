package org.medjava.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RegionTest {
    @Test
    void clipsToTheImage() {
        assertThat(Region.of(-2, 3, 10, 10).clip(5, 8)).isEqualTo(Region.of(0, 3, 5, 5));
        assertThat(Region.of(0, 0, 5, 8).clip(5, 8)).isEqualTo(Region.of(0, 0, 5, 8));
    }

    @Test
    void regionOutsideTheImageClipsToEmpty() {
        assertThat(Region.of(10, 10, 4, 4).clip(5, 5).isEmpty()).isTrue();
        assertThat(Region.of(-10, 0, 4, 4).clip(5, 5).isEmpty()).isTrue();
        assertThat(Region.of(Integer.MAX_VALUE, 0, Integer.MAX_VALUE, 4).clip(5, 5).isEmpty()).isTrue();
    }

    @Test
    void parsesAndPrintsXywh() {
        assertThat(Region.parse(" 1, 2,3 ,4")).isEqualTo(Region.of(1, 2, 3, 4));
        assertThat(Region.of(1, 2, 3, 4).toString()).isEqualTo("1,2,3,4");
        assertThatThrownBy(() -> Region.parse("1,2,3")).hasMessageContaining("x,y,w,h");
        assertThatThrownBy(() -> Region.parse("1,2,a,4")).hasMessageContaining("x,y,w,h");
        assertThatThrownBy(() -> Region.of(0, 0, -1, 4)).hasMessageContaining("negative");
    }
}
