package org.medjava.store.core.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.medjava.codec.ImageFormat;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.Implementation;
import org.medjava.filter.Region;
import org.medjava.store.core.render.RenderRequest.FilterStep;
import org.medjava.store.core.StoreException;

/** {@link RenderRequest#parse}: the render query, and a 400 naming the parameter for every malformed one. */
class RenderRequestTest {

    @Test
    void defaults() {
        RenderRequest r = RenderRequest.parse(Map.of());

        assertThat(r.format()).isEqualTo(ImageFormat.PNG);
        assertThat(r.filters()).isEmpty();
        assertThat(r.window()).isNull();
        assertThat(r.region()).isNull();
        assertThat(r.frame()).isZero();
        assertThat(r.implementation()).isEqualTo(Implementation.OPTIMIZED);
    }

    @ParameterizedTest
    @CsvSource({"png, PNG", "PNG, PNG", "gif, GIF", "jpeg, JPEG", "jpg, JPEG", "JPG, JPEG", "dicom, DICOM"})
    void formats(String value, ImageFormat expected) {
        assertThat(parse("render", value).format()).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ppm", "dcm", "tiff", ""})
    void unknownFormat(String value) {
        assertBad(query("render", value)).hasMessageContaining("render=" + value + " is not a format")
                .hasMessageContaining("png, gif, jpeg or dicom");
    }

    // ------------------------------------------------------------------ filters

    @Test
    void filterWithoutParameters() {
        assertThat(parse("filter", "blur").filters()).containsExactly(new FilterStep("blur", Map.of()));
    }

    @Test
    void filterWithParameters() {
        FilterStep step = parse("filter", "blur:n=5,sigma=1.5").filters().get(0);

        assertThat(step.filterId()).isEqualTo("blur");
        assertThat(step.params()).containsExactlyInAnyOrderEntriesOf(Map.of("n", "5", "sigma", "1.5"));
    }

    @Test
    void parameterNamesAndValuesAreTrimmedAndValuesMayContainEquals() {
        FilterStep step = parse("filter", " blur: n = 5 , expr=a=b").filters().get(0);

        assertThat(step.filterId()).isEqualTo("blur");
        assertThat(step.params()).containsEntry("n", "5").containsEntry("expr", "a=b");
    }

    @Test
    void repeatedFilterParametersApplyInOrder() {
        RenderRequest r = RenderRequest.parse(Map.of("filter", List.of("blur:n=3", "sharpen", "emboss")));

        assertThat(r.filters()).extracting(FilterStep::filterId).containsExactly("blur", "sharpen", "emboss");
    }

    @Test
    void pipeSeparatedChainsAndRepeatedParametersCombine() {
        RenderRequest r = RenderRequest.parse(Map.of("filter", List.of("blur:n=3|sharpen", "despeckle|pixelize:size=4")));

        assertThat(r.filters()).extracting(FilterStep::filterId)
                .containsExactly("blur", "sharpen", "despeckle", "pixelize");
        assertThat(r.filters().get(0).params()).containsExactlyEntriesOf(Map.of("n", "3"));
        assertThat(r.filters().get(3).params()).containsExactlyEntriesOf(Map.of("size", "4"));
    }

    @Test
    void emptyChainElementsAreSkipped() {
        RenderRequest r = parse("filter", "blur||sharpen|");

        assertThat(r.filters()).extracting(FilterStep::filterId).containsExactly("blur", "sharpen");
        assertThat(parse("filter", "").filters()).isEmpty();
    }

    @Test
    void colonWithNothingAfterItMeansNoParameters() {
        assertThat(parse("filter", "blur:").filters()).containsExactly(new FilterStep("blur", Map.of()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "blur:n          | \"n\" is not name=value",
            "blur:=5         | \"=5\" is not name=value",
            "blur:n=5,,m=3   | \"\" is not name=value",
            "blur:n=5,m      | \"m\" is not name=value",
            "blur: =3        | \" =3\" is not name=value"})
    void malformedParameterPairs(String filter, String message) {
        assertBad(query("filter", filter)).hasMessageContaining("filter blur: " + message.strip())
                .hasMessageContaining("filter=id:name=value");
    }

    @Test
    void filterStepParamsAreImmutable() {
        FilterStep step = parse("filter", "blur:n=5").filters().get(0);

        assertThatThrownBy(() -> step.params().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(step).hasToString("blur {n=5}");
        assertThat(new FilterStep("blur", Map.of())).hasToString("blur");
    }

    // ------------------------------------------------------------------ window, region, frame, impl

    @Test
    void window() {
        assertThat(parse("window", "40,400").window()).isEqualTo(new Window(40, 400));
        assertThat(parse("window", " -600 , 1500.5 ").window()).isEqualTo(new Window(-600, 1500.5));
    }

    @ParameterizedTest
    @ValueSource(strings = {"40", "40,400,1", "", "40;400", "40,"})
    void windowThatIsNotTwoNumbers(String value) {
        assertBad(query("window", value)).hasMessageContaining("window=" + value + " is not center,width");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a,400", "40,wide", ",400", "40,0", "40,-5", "NaN,400", "40,Infinity"})
    void windowWithBadNumbers(String value) {
        assertBad(query("window", value)).hasMessageStartingWith("window=" + value + ": ");
    }

    @Test
    void region() {
        assertThat(parse("region", "10,20,30,40").region()).isEqualTo(Region.of(10, 20, 30, 40));
        assertThat(parse("region", " 1 , 2 , 3 , 4 ").region()).isEqualTo(Region.of(1, 2, 3, 4));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1,2,3", "1,2,3,4,5", "a,b,c,d", "", "1,2,-3,4"})
    void badRegion(String value) {
        assertBad(query("region", value)).hasMessageStartingWith("region: ");
    }

    @Test
    void frame() {
        assertThat(parse("frame", "3").frame()).isEqualTo(3);
        assertThat(parse("frame", " 0 ").frame()).isZero();
    }

    @Test
    void negativeFrame() {
        assertBad(query("frame", "-1")).hasMessageContaining("frame must be 0 or more, not -1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"one", "1.5", "", "99999999999"})
    void nonNumericFrame(String value) {
        assertBad(query("frame", value)).hasMessageContaining("frame=" + value + " is not a whole number");
    }

    @ParameterizedTest
    @CsvSource({"straightforward, STRAIGHTFORWARD", "optimized, OPTIMIZED", "PARALLEL, PARALLEL"})
    void implementations(String value, Implementation expected) {
        assertThat(parse("impl", value).implementation()).isEqualTo(expected);
    }

    @Test
    void unknownImplementation() {
        assertBad(query("impl", "fast")).hasMessageContaining("impl: ").hasMessageContaining("\"fast\"")
                .hasMessageContaining("straightforward, optimized, parallel");
    }

    // ------------------------------------------------------------------ repeated single-valued parameters

    @ParameterizedTest
    @CsvSource({"render, png, gif", "window, '40,400', '50,500'", "region, '0,0,1,1', '0,0,2,2'", "frame, 0, 1",
            "impl, optimized, parallel"})
    void singleValuedParametersGivenTwiceAreRefused(String name, String first, String second) {
        assertBad(Map.of(name, List.of(first, second))).hasMessageContaining(name + " is given 2 times");
    }

    @Test
    void aFullRequest() {
        Map<String, List<String>> q = new LinkedHashMap<>();
        q.put("render", List.of("jpeg"));
        q.put("filter", List.of("blur:n=5|sharpen"));
        q.put("window", List.of("40,400"));
        q.put("region", List.of("0,0,64,64"));
        q.put("frame", List.of("2"));
        q.put("impl", List.of("parallel"));

        RenderRequest r = RenderRequest.parse(q);

        assertThat(r).isEqualTo(new RenderRequest(ImageFormat.JPEG, List.of(new FilterStep("blur", Map.of("n", "5")),
                new FilterStep("sharpen", Map.of())), new Window(40, 400), Region.of(0, 0, 64, 64), 2,
                Implementation.PARALLEL));
    }

    // ------------------------------------------------------------------ helpers

    // ------------------------------------------------------------------ chain length

    @Test
    void aChainUpToTheLimitPassesOneMoreIs400NamingTheLimit() {
        RenderRequest sixteen = parse("filter", String.join("|", java.util.Collections.nCopies(16, "blur")));
        sixteen.requireChainAtMost(RenderRequest.DEFAULT_MAX_CHAIN);
        RenderRequest seventeen = parse("filter", String.join("|", java.util.Collections.nCopies(17, "blur")));
        assertThatThrownBy(() -> seventeen.requireChainAtMost(RenderRequest.DEFAULT_MAX_CHAIN))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind())
                        .isEqualTo(StoreException.Kind.BAD_REQUEST))
                .hasMessageContaining("17 steps").hasMessageContaining("at most 16")
                .hasMessageContaining("medjava.filters.max-chain");
    }

    @Test
    void repeatedFilterParametersCountTowardsTheChainToo() {
        RenderRequest r = RenderRequest.parse(Map.of("filter", java.util.Collections.nCopies(3, "blur|sharpen")));
        assertThatThrownBy(() -> r.requireChainAtMost(5)).hasMessageContaining("6 steps");
    }

    @Test
    void thousandsOfStepsAreRefusedWhileParsing() {
        assertBad(query("filter", String.join("|", java.util.Collections.nCopies(2_000, "blur"))))
                .hasMessageContaining("more than 1024 steps");
    }

    private static Map<String, List<String>> query(String name, String value) {
        return Map.of(name, List.of(value));
    }

    private static RenderRequest parse(String name, String value) {
        return RenderRequest.parse(query(name, value));
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertBad(Map<String, List<String>> query) {
        return assertThatThrownBy(() -> RenderRequest.parse(query)).isInstanceOf(StoreException.class)
                .satisfies(e -> assertThat(((StoreException) e).kind()).as(e.getMessage())
                        .isEqualTo(StoreException.Kind.BAD_REQUEST));
    }
}
