package org.medjava.viewer.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.Implementation;
import org.medjava.filter.Region;

class SeriesJobTest {
    private static final Set<String> STORE = Set.of("blur", "sharpen", "invert");

    private static FilterStep stored(String id, String params, Region region) {
        return new FilterStep(id, params, region, Implementation.PARALLEL, null, true);
    }

    private static FilterStep eightBit(String id, String params) {
        return new FilterStep(id, params, null, Implementation.PARALLEL, null, false);
    }

    @Test
    void stepTextIsTheStoresIdColonCommaSeparatedParameters() {
        assertThat(SeriesJob.stepText(stored("blur", "n=3", null))).isEqualTo("blur:n=3");
        assertThat(SeriesJob.stepText(stored("sharpen", "n=3 p=75", null))).isEqualTo("sharpen:n=3,p=75");
        assertThat(SeriesJob.stepText(stored("invert", "", null))).isEqualTo("invert");
    }

    @Test
    void paramsJoinTheStepsWithBarsAndCarryWindowAndRegion() {
        Region r = new Region(4, 5, 60, 70);
        FilterChain chain = FilterChain.EMPTY.then(stored("blur", "n=3", r)).then(stored("sharpen", "n=3 p=50", r));
        assertThat(SeriesJob.params("1.2.3", chain, new Window(40, 400))).containsExactly(
                java.util.Map.entry("SeriesInstanceUID", "1.2.3"),
                java.util.Map.entry("filter", "blur:n=3|sharpen:n=3,p=50"),
                java.util.Map.entry("window", "40,400"),
                java.util.Map.entry("region", "4,5,60,70"));
        assertThat(SeriesJob.params("1.2.3", FilterChain.EMPTY.then(eightBit("invert", "")), new Window(40.5, 401)))
                .containsEntry("window", "40.5,401").doesNotContainKey("region");
        assertThat(SeriesJob.params("1.2.3", FilterChain.EMPTY.then(eightBit("invert", "")), null))
                .doesNotContainKey("window");
    }

    @Test
    void aChainTheStoreCannotRepeatIsRefusedWithTheReason() {
        FilterChain blur = FilterChain.EMPTY.then(stored("blur", "n=3", null));
        assertThat(SeriesJob.problem(blur, true, STORE)).isNull();
        assertThat(SeriesJob.problem(FilterChain.EMPTY, true, STORE)).contains("apply filters");
        assertThat(SeriesJob.problem(FilterChain.EMPTY.then(stored("local-only", "", null)), true, STORE))
                .contains("local-only").contains("not one of the store's filters");
        FilterChain mixed = blur.then(eightBit("sharpen", "n=3 p=50"));
        assertThat(SeriesJob.problem(mixed, true, STORE)).contains("8-bit");
        assertThat(SeriesJob.problem(mixed, false, STORE)).as("colour: every step is on 8-bit pixels").isNull();
        FilterChain twoRegions = blur.then(stored("sharpen", "n=3 p=50", new Region(0, 0, 8, 8)));
        assertThat(SeriesJob.problem(twoRegions, true, STORE)).contains("different regions");
    }
}
