package org.medjava.plugin.blur;

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
class BlurSuiteTest implements FilterSuite, Gray16Suite {
    private final Filter filter = new BlurFilter();

    @Override
    public Filter filter() {
        return filter;
    }

    @Override
    public String expectedDescriptor() {
        return "blur \"Blur\" v1 spec 2.1 parallel; n: an odd integer from 1 to 255 (default 3)";
    }

    @Override
    public int randomCases() {
        return 800;
    }

    /** Masks 3..11 mostly, 1 (the identity), and now and then anything up to 255 (clipped to small regions). */
    @Override
    public Map<String, String> randomParams(SplittableRandom rnd) {
        int n;
        switch (rnd.nextInt(10)) {
            case 0:
                n = 2 * rnd.nextInt(128) + 1;
                break;
            case 1:
                n = 1;
                break;
            default:
                n = 2 * rnd.nextInt(1, 6) + 1;
        }
        return Map.of("n", Integer.toString(n));
    }
}
