package org.medjava.plugin.sharpen;

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
class SharpenSuiteTest implements FilterSuite, Gray16Suite {
    private final Filter filter = new SharpenFilter();

    @Override
    public Filter filter() {
        return filter;
    }

    @Override
    public String expectedDescriptor() {
        return "sharpen \"Sharpen\" v1 spec 2.2 parallel; p: an integer from 0 to 99 (default 75)";
    }

    @Override
    public int randomCases() {
        return 1500;
    }

    /** p anywhere in 0..99, with the ends and the default drawn more often. */
    @Override
    public Map<String, String> randomParams(SplittableRandom rnd) {
        int p = rnd.nextInt(4) == 0 ? new int[] {0, 1, 75, 98, 99}[rnd.nextInt(5)] : rnd.nextInt(100);
        return Map.of("p", Integer.toString(p));
    }
}
