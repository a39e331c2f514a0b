package org.medjava.plugin.edgedetect;

import java.util.Map;
import java.util.SplittableRandom;
import org.medjava.filter.Filter;
import org.medjava.filter.testkit.FilterSuite;
import org.medjava.filter.testkit.Gray16Suite;

/**
 * The testkit's suites for this plugin, 8-bit ({@link FilterSuite}: provider, golden cases, all implementations
 * agreeing on random cases and on larger images) and grey ({@link Gray16Suite}), with the parameters that stress
 * it.
 */
class EdgeDetectSuiteTest implements FilterSuite, Gray16Suite {
    private final Filter filter = new EdgeDetectFilter();

    @Override
    public Filter filter() {
        return filter;
    }

    @Override
    public String expectedDescriptor() {
        return "edge-detect \"Edge Detect\" v1 spec 2.4 parallel; frame: one of xv, black (default xv)";
    }

    @Override
    public int randomCases() {
        return 1500;
    }

    /** xv's frame mostly, the black frame a third of the time. */
    @Override
    public Map<String, String> randomParams(SplittableRandom rnd) {
        return Map.of("frame", rnd.nextInt(3) == 0 ? "black" : "xv");
    }
}
