package org.medjava.plugin.pixelize;

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
class PixelizeSuiteTest implements FilterSuite, Gray16Suite {
    private final Filter filter = new PixelizeFilter();

    @Override
    public Filter filter() {
        return filter;
    }

    @Override
    public String expectedDescriptor() {
        return "pixelize \"Pixelize\" v1 spec 2.7 parallel; "
                + "block: \"N\" or \"AxB\" with each number from 1 to 65535 (default 4)";
    }

    @Override
    public int randomCases() {
        return 800;
    }

    /** Small blocks mostly, N and AxB (either case of x), blocks larger than the image, 65535. */
    @Override
    public Map<String, String> randomParams(SplittableRandom rnd) {
        String block;
        switch (rnd.nextInt(8)) {
            case 0:
                block = Integer.toString(1 + rnd.nextInt(100));
                break;
            case 1:
                block = (1 + rnd.nextInt(80)) + "x" + (1 + rnd.nextInt(60));
                break;
            case 2:
                block = rnd.nextBoolean() ? "65535" : "1x65535";
                break;
            case 3:
            case 4:
                block = (1 + rnd.nextInt(8)) + (rnd.nextBoolean() ? "x" : "X") + (1 + rnd.nextInt(8));
                break;
            default:
                block = Integer.toString(1 + rnd.nextInt(8));
        }
        return Map.of("block", block);
    }
}
