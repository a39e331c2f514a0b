package org.medjava.plugin.spread;

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
class SpreadSuiteTest implements FilterSuite, Gray16Suite {
    private final Filter filter = new SpreadFilter();

    @Override
    public Filter filter() {
        return filter;
    }

    @Override
    public String expectedDescriptor() {
        return "spread \"Spread\" v1 spec 2.8 sequential; "
                + "distance: \"N\" or \"AxB\" with each number from 0 to 65535 (default 5); "
                + "seed: an integer from 0 to 2147483647 (default 1); seed-from-clock: true or false (default false)";
    }

    @Override
    public int randomCases() {
        return 1000;
    }

    /** Small diamonds mostly, boxes (either case of x), no-ops, distances up to 65535, seeds 0, 1, 2 and any. */
    @Override
    public Map<String, String> randomParams(SplittableRandom rnd) {
        String distance;
        switch (rnd.nextInt(10)) {
            case 0:
                distance = rnd.nextBoolean() ? "0" : "0x0";
                break;
            case 1:
                distance = Integer.toString(rnd.nextInt(65536));
                break;
            case 2:
                distance = rnd.nextInt(65536) + "x" + rnd.nextInt(65536);
                break;
            case 3:
            case 4:
                distance = rnd.nextInt(12) + (rnd.nextBoolean() ? "x" : "X") + rnd.nextInt(12);
                break;
            default:
                distance = Integer.toString(rnd.nextInt(1, 20));
        }
        int seed = rnd.nextInt(4) == 0 ? rnd.nextInt(3) : rnd.nextInt(Integer.MAX_VALUE);
        return Map.of("distance", distance, "seed", Integer.toString(seed));
    }
}
