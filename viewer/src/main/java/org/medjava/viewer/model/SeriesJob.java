package org.medjava.viewer.model;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.Region;

/**
 * The store's {@code derive-series} job for an open image's chain: whether the store can repeat the chain over the
 * whole series exactly as the viewer ran it, and the job's parameters ({@code "blur:n=3|sharpen:p=50"}, window
 * {@code "c,w"}, region {@code "x,y,w,h"}).
 */
public final class SeriesJob {
    public static final String KIND = "derive-series";

    private SeriesJob() {
    }

    /**
     * Why the store cannot repeat {@code chain} over the series, or null when it can. The store filters a grey
     * series' stored values and a colour one's 8-bit pixels, with one region for the whole chain, using the filters
     * of its own repository ({@code storeFilterIds}).
     */
    public static String problem(FilterChain chain, boolean grey, Set<String> storeFilterIds) {
        if (chain.isEmpty()) {
            return "apply filters to the image first: the store applies the same chain to the series";
        }
        for (FilterStep s : chain.steps()) {
            if (!storeFilterIds.contains(s.filterId())) {
                return "filter " + s.filterId() + " is not one of the store's filters";
            }
        }
        if (grey && !chain.allOnStoredValues()) {
            return "some steps ran on the 8-bit image; the store filters a grey series' stored values";
        }
        Region region = chain.steps().get(0).region();
        if (chain.steps().stream().anyMatch(s -> !Objects.equals(s.region(), region))) {
            return "the steps ran on different regions; the store applies the whole chain to one region";
        }
        return null;
    }

    /** {@code "blur:n=3,p=50"} (just the id without parameters): one step as the store's filter chains write it. */
    public static String stepText(FilterStep step) {
        String params = step.params().isBlank() ? "" : String.join(",", step.params().trim().split("\\s+"));
        return params.isEmpty() ? step.filterId() : step.filterId() + ":" + params;
    }

    /**
     * The job's parameters. {@code window} (null for colour) becomes the derived objects' default window; the region
     * is the chain's (see {@link #problem}, which must have found none).
     */
    public static Map<String, String> params(String seriesInstanceUid, FilterChain chain, Window window) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("SeriesInstanceUID", seriesInstanceUid);
        params.put("filter", chain.steps().stream().map(SeriesJob::stepText).collect(Collectors.joining("|")));
        if (window != null) {
            params.put("window", number(window.center()) + "," + number(window.width()));
        }
        Region region = chain.isEmpty() ? null : chain.steps().get(0).region();
        if (region != null) {
            params.put("region", region.toString());
        }
        return params;
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
