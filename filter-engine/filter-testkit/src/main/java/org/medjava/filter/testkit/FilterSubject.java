package org.medjava.filter.testkit;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.medjava.filter.Filter;
import org.medjava.filter.ParamSpec;

/**
 * What the shared suites ({@link FilterSuite}, {@link Gray16Suite}) need to know about a plugin: its filter, how to
 * draw random valid parameters that stress it, and how large a random image may be for them. A plugin's suite test
 * class implements the suites and overrides these where its parameters need a particular distribution.
 */
public interface FilterSubject {

    Filter filter();

    /**
     * Random valid parameters. This default draws every kind of value from the descriptor's rules (mask sizes up to
     * 9, now and then 31; extents up to 12; booleans stay at their default, so outputs are reproducible).
     */
    default Map<String, String> randomParams(SplittableRandom random) {
        Map<String, String> params = new LinkedHashMap<>();
        for (ParamSpec p : filter().descriptor().params()) {
            if (random.nextInt(4) == 0) {
                continue; // default
            }
            switch (p.type()) {
                case INT: {
                    int max = p.name().equals("n") ? Math.min(p.max(), random.nextInt(8) == 0 ? 31 : 9) : p.max();
                    int v = (int) random.nextLong(p.min(), (long) max + 1);
                    if (p.oddOnly() && v % 2 == 0) {
                        v = v == max ? v - 1 : v + 1;
                    }
                    params.put(p.name(), Integer.toString(v));
                    break;
                }
                case EXTENT: {
                    int a = p.min() + random.nextInt(12);
                    int b = p.min() + random.nextInt(12);
                    params.put(p.name(), random.nextBoolean() ? Integer.toString(a) : a + "x" + b);
                    break;
                }
                case CHOICE:
                    params.put(p.name(), p.choices().get(random.nextInt(p.choices().size())));
                    break;
                default:
                    break;
            }
        }
        return params;
    }

    /** The largest side of a small random image for these parameters (ports that are O(n⁴) keep it small). */
    default int maxSide(Map<String, String> params) {
        return 70;
    }
}
