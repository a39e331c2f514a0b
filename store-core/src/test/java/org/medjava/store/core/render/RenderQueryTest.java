package org.medjava.store.core.render;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.medjava.filter.Region;
import org.medjava.store.core.StoreException;

/** What a rendering's query may not say: refused with 400 rather than ignored. */
class RenderQueryTest {

    @ParameterizedTest
    @ValueSource(strings = {"render", "window", "region", "frame", "impl", "viewport"})
    void aSingleValuedParameterGivenTwiceIsRefused(String name) {
        assertBad(Map.of(name, List.of("1", "2")), name + " is given 2 times");
    }

    @Test
    void anEmptyFilterOrAnEmptyStepIsRefused() {
        assertBad(Map.of("filter", List.of("")), "filter= names no filter");
        assertBad(Map.of("filter", List.of(" ")), "filter= names no filter");
        assertBad(Map.of("filter", List.of("blur||sharpen")), "empty step");
        assertBad(Map.of("filter", List.of("blur|")), "empty step");
    }

    @Test
    void anEmptyOrMalformedRegionIsRefused() {
        assertBad(Map.of("region", List.of("")), "is not x,y,w,h");
        assertBad(Map.of("region", List.of("1,2,3")), "is not x,y,w,h");
        assertBad(Map.of("region", List.of("0,0,0,5")), "is empty");
        assertBad(Map.of("region", List.of("0,0,-1,5")), "is not x,y,w,h");
    }

    @Test
    void aGoodQueryPasses() {
        assertThatCode(() -> RenderQuery.check(Map.of("render", List.of("png"), "filter", List.of("blur", "a|b"),
                "region", List.of("0,0,8,8"), "window", List.of("40,400")))).doesNotThrowAnyException();
    }

    @Test
    void aRegionWhollyOutsideTheImageIsRefusedAndOneOverlappingItPasses() {
        assertThatThrownBy(() -> RenderQuery.requireInside(Region.of(128, 0, 5, 5), 128, 128))
                .isInstanceOf(StoreException.class).hasMessageContaining("outside the 128x128 image");
        assertThatThrownBy(() -> RenderQuery.requireInside(Region.of(-10, -10, 10, 10), 128, 128))
                .isInstanceOf(StoreException.class);
        assertThatCode(() -> RenderQuery.requireInside(Region.of(120, 120, 50, 50), 128, 128))
                .doesNotThrowAnyException();
        assertThatCode(() -> RenderQuery.requireInside(null, 128, 128)).doesNotThrowAnyException();
    }

    private static void assertBad(Map<String, List<String>> query, String message) {
        assertThatThrownBy(() -> RenderQuery.check(query)).isInstanceOfSatisfying(StoreException.class,
                e -> org.assertj.core.api.Assertions.assertThat(e.kind()).isEqualTo(StoreException.Kind.BAD_REQUEST))
                .hasMessageContaining(message);
    }
}
