package org.medjava.store.core.render;

import java.util.List;
import java.util.Map;
import org.medjava.filter.Region;
import org.medjava.store.core.StoreException;

/**
 * The checks of a rendering's query that come before its parsing ({@link RenderRequest#parse}): what would otherwise
 * be quietly ignored is refused with 400 — a parameter that takes one value given twice, an empty {@code filter=}
 * or an empty step in a chain ({@code blur||sharpen}), an empty region — and, once the image's size is known,
 * a region wholly outside the image.
 */
public final class RenderQuery {

    /** The parameters that take one value. */
    public static final List<String> SINGLE = List.of("render", "window", "region", "frame", "impl", "viewport");

    private RenderQuery() {
    }

    /** @throws StoreException BAD_REQUEST naming the parameter */
    public static void check(Map<String, List<String>> query) {
        for (String name : SINGLE) {
            List<String> values = query.get(name);
            if (values != null && values.size() > 1) {
                throw bad(name + " is given " + values.size() + " times; give it once");
            }
        }
        for (String filter : query.getOrDefault("filter", List.of())) {
            if (filter.isBlank()) {
                throw bad("filter= names no filter (write filter=id or filter=id:name=value,...; leave it out for"
                        + " none)");
            }
            for (String step : filter.split("\\|", -1)) {
                if (step.isBlank()) {
                    throw bad("filter=" + filter + " has an empty step (write filter=a|b, each step a filter id)");
                }
            }
        }
        List<String> region = query.get("region");
        if (region != null && !region.isEmpty()) {
            Region r;
            try {
                r = Region.parse(region.get(0));
            } catch (IllegalArgumentException e) {
                throw bad("region=" + region.get(0) + " is not x,y,w,h (four whole numbers, for example "
                        + "region=0,0,64,64)");
            }
            if (r.isEmpty()) {
                throw bad("region=" + r + " is empty: its width and height must be 1 or more");
            }
        }
    }

    /** @throws StoreException BAD_REQUEST when {@code region} (not null) lies wholly outside the image */
    public static void requireInside(Region region, int width, int height) {
        if (region != null && region.clip(width, height).isEmpty()) {
            throw bad("region=" + region + " lies outside the " + width + "x" + height + " image");
        }
    }

    private static StoreException bad(String message) {
        return new StoreException(StoreException.Kind.BAD_REQUEST, message);
    }
}
