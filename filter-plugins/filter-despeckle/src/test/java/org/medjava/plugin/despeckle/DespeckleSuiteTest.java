package org.medjava.plugin.despeckle;

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
class DespeckleSuiteTest implements FilterSuite, Gray16Suite {
    private final Filter filter = new DespeckleFilter();

    @Override
    public Filter filter() {
        return filter;
    }

    @Override
    public String expectedDescriptor() {
        return "despeckle \"DeSpeckle\" v1 spec 2.3 parallel; n: an odd integer from 1 to 255 (default 3)";
    }

    @Override
    public int randomCases() {
        return 600;
    }

    /** Mostly 3 (the sorting network), 5..13 (the sliding histogram), 1, and now and then anything up to 255. */
    @Override
    public Map<String, String> randomParams(SplittableRandom rnd) {
        int k = rnd.nextInt(20);
        int n = k == 0 ? 2 * rnd.nextInt(128) + 1 : k == 1 ? 1 : k < 10 ? 3 : 2 * rnd.nextInt(2, 7) + 1;
        return Map.of("n", Integer.toString(n));
    }
}
