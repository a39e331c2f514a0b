package org.medjava.viewer.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.Implementation;
import org.medjava.filter.Region;

class FilterChainTest {

    private static final FilterStep BLUR = new FilterStep("blur", "n=3", null, Implementation.PARALLEL);
    private static final FilterStep SHARPEN = new FilterStep("sharpen", "p=50", new Region(10, 20, 30, 40),
            Implementation.OPTIMIZED);

    @Test
    void describesEachStepInOrderWithItsRegion() {
        FilterChain chain = FilterChain.EMPTY.then(BLUR).then(SHARPEN);
        assertThat(chain.describe()).isEqualTo("blur n=3 + sharpen p=50 @10,20,30,40");
        assertThat(FilterChain.EMPTY.isEmpty()).isTrue();
        assertThat(chain.steps()).containsExactly(BLUR, SHARPEN);
    }

    @Test
    void thenLeavesTheEarlierChainAsItWas() {
        FilterChain one = FilterChain.EMPTY.then(BLUR);
        one.then(SHARPEN);
        assertThat(one.steps()).containsExactly(BLUR);
    }

    @Test
    void derivationDescriptionRecordsWindowAndFilters() {
        FilterChain chain = FilterChain.EMPTY.then(BLUR);
        assertThat(chain.derivationDescription(new Window(40, 400)))
                .isEqualTo("MedJava viewer: window C 40 W 400; filters: blur n=3");
        assertThat(chain.derivationDescription(null)).isEqualTo("MedJava viewer: filters: blur n=3");
        assertThat(FilterChain.EMPTY.derivationDescription(null)).isEqualTo("MedJava viewer: filters: none");
    }

    @Test
    void aStoredValuesDescriptionNamesTheChainAndTheWindowItCarries() {
        FilterStep despeckle = new FilterStep("despeckle", "n=3", null, Implementation.OPTIMIZED,
                new FilterStep.Plugin("filter-despeckle", "1.0", "ab".repeat(32)), true);
        FilterChain chain = FilterChain.EMPTY.then(despeckle);
        assertThat(chain.allOnStoredValues()).isTrue();
        assertThat(chain.storedValuesDerivationDescription(new Window(400, 1800)))
                .isEqualTo("MedJava viewer: filters on the stored values: despeckle n=3; window C 400 W 1800");
        FilterChain mixed = chain.then(BLUR);
        assertThat(mixed.allOnStoredValues()).isFalse();
        assertThat(mixed.derivationDescription(new Window(40, 400))).isEqualTo("MedJava viewer: window C 40 W 400;"
                + " filters: despeckle n=3 (on the stored values) + blur n=3 (on the 8-bit image)");
    }

    @Test
    void stepsWithoutParametersOmitThem() {
        assertThat(new FilterStep("edge-detect", "", null, Implementation.PARALLEL).describe()).isEqualTo("edge-detect");
    }
}
