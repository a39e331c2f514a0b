package org.medjava.plugin.emboss;

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
class EmbossSuiteTest implements FilterSuite, Gray16Suite {
    private final Filter filter = new EmbossFilter();

    @Override
    public Filter filter() {
        return filter;
    }

    @Override
    public String expectedDescriptor() {
        return "emboss \"Emboss\" v1 spec 2.5 parallel; rounding: one of xv, floor (default xv)";
    }

    @Override
    public int randomCases() {
        return 1500;
    }

    /** xv's rounding mostly, floor a third of the time. */
    @Override
    public Map<String, String> randomParams(SplittableRandom rnd) {
        return Map.of("rounding", rnd.nextInt(3) == 0 ? "floor" : "xv");
    }
}
