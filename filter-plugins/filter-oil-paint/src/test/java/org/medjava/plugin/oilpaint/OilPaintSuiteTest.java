package org.medjava.plugin.oilpaint;

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
class OilPaintSuiteTest implements FilterSuite, Gray16Suite {
    private final Filter filter = new OilPaintFilter();

    @Override
    public Filter filter() {
        return filter;
    }

    @Override
    public String expectedDescriptor() {
        return "oil-paint \"Oil Painting\" v1 spec 2.6 parallel; n: an integer from 1 to 31 (default 3); "
                + "window: one of xv, centred (default xv)";
    }

    @Override
    public int randomCases() {
        return 2000;
    }

    /** n 1..8 mostly, up to 31 a third of the time; the centred window a third of the time. */
    @Override
    public Map<String, String> randomParams(SplittableRandom rnd) {
        int n = rnd.nextInt(3) > 0 ? 1 + rnd.nextInt(8) : 1 + rnd.nextInt(31);
        return Map.of("n", Integer.toString(n), "window", rnd.nextInt(3) == 0 ? "centred" : "xv");
    }

    /** The straightforward port is O(n⁴) per pixel: large windows on small images. */
    @Override
    public int maxSide(Map<String, String> params) {
        return Integer.parseInt(params.get("n")) > 8 ? 24 : 70;
    }
}
