package org.medjava.store.core.render;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.medjava.codec.ImageFormat;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.Implementation;
import org.medjava.filter.Region;
import org.medjava.store.core.StoreException;

/**
 * What {@code GET /images/{path}?render=...} asks for, parsed from the query:
 * {@code render=png|gif|jpeg|dicom} (dicom: the derived object of DICOM sources, see DerivedImages), {@code filter=id[:name=value,...]} (repeated, applied in order),
 * {@code window=center,width} (DICOM), {@code region=x,y,w,h} (where the filters apply), {@code frame=n} (from 0),
 * {@code impl=straightforward|optimized|parallel}.
 *
 * @param window null for the image's own default
 */
public record RenderRequest(ImageFormat format, List<FilterStep> filters, Window window, Region region, int frame,
                            Implementation implementation) {

    /** The most filters one request may chain unless the store sets another limit (medjava.filters.max-chain). */
    public static final int DEFAULT_MAX_CHAIN = 16;

    /** More steps than this are refused while parsing, whatever the store's limit: no list of a million steps. */
    static final int PARSE_LIMIT = 1024;

    /** One filter of the chain. */
    public record FilterStep(String filterId, Map<String, String> params) {
        public FilterStep {
            params = Map.copyOf(params);
        }

        @Override
        public String toString() {
            return params.isEmpty() ? filterId : filterId + " " + params;
        }
    }

    public static RenderRequest parse(Map<String, List<String>> query) {
        ImageFormat format = switch (single(query, "render", "png").toLowerCase(Locale.ROOT)) {
            case "png" -> ImageFormat.PNG;
            case "gif" -> ImageFormat.GIF;
            case "jpeg", "jpg" -> ImageFormat.JPEG;
            case "dicom" -> ImageFormat.DICOM;
            default -> throw bad("render=" + single(query, "render", "") + " is not a format; use png, gif, jpeg or"
                    + " dicom");
        };
        List<FilterStep> filters = query.getOrDefault("filter", List.of()).stream()
                .flatMap(f -> java.util.Arrays.stream(f.split("\\|"))).filter(f -> !f.isBlank())
                .limit(PARSE_LIMIT + 1L).map(RenderRequest::step).toList();
        if (filters.size() > PARSE_LIMIT) {
            throw bad("the filter chain has more than " + PARSE_LIMIT + " steps; a request may chain at most as many"
                    + " filters as medjava.filters.max-chain says (" + DEFAULT_MAX_CHAIN + " unless configured)");
        }
        Window window = query.containsKey("window") ? window(single(query, "window", "")) : null;
        Region region = null;
        if (query.containsKey("region")) {
            try {
                region = Region.parse(single(query, "region", ""));
            } catch (IllegalArgumentException e) {
                throw bad("region: " + e.getMessage());
            }
        }
        int frame = integer(single(query, "frame", "0"), "frame");
        Implementation implementation;
        try {
            implementation = Implementation.parse(single(query, "impl", "optimized"));
        } catch (IllegalArgumentException e) {
            throw bad("impl: " + e.getMessage());
        }
        return new RenderRequest(format, filters, window, region, frame, implementation);
    }

    /**
     * Refuses a chain longer than {@code maxChain} (400 naming the limit): every step is a full pass over the image
     * and a copy of it.
     */
    public void requireChainAtMost(int maxChain) {
        if (filters.size() > maxChain) {
            throw bad("the filter chain has " + filters.size() + " steps; the store runs at most " + maxChain
                    + " in one request (medjava.filters.max-chain)");
        }
    }

    /** "blur" or "blur:n=5,impl=..." */
    static FilterStep step(String text) {
        String[] idAndParams = text.trim().split(":", 2);
        String id = idAndParams[0].trim();
        if (id.isEmpty()) {
            throw bad("filter=" + text + " names no filter (write filter=id:name=value,name=value)");
        }
        Map<String, String> params = new LinkedHashMap<>();
        if (idAndParams.length == 2 && !idAndParams[1].isBlank()) {
            for (String pair : idAndParams[1].split(",")) {
                String[] kv = pair.split("=", 2);
                if (kv.length != 2 || kv[0].isBlank()) {
                    throw bad("filter " + id + ": \"" + pair + "\" is not name=value "
                            + "(write filter=id:name=value,name=value)");
                }
                params.put(kv[0].trim(), kv[1].trim());
            }
        }
        return new FilterStep(id, params);
    }

    private static Window window(String text) {
        String[] parts = text.split(",");
        if (parts.length != 2) {
            throw bad("window=" + text + " is not center,width (for example window=40,400)");
        }
        try {
            return new Window(Double.parseDouble(parts[0].trim()), Double.parseDouble(parts[1].trim()));
        } catch (IllegalArgumentException e) {
            throw bad("window=" + text + ": " + e.getMessage());
        }
    }

    private static int integer(String text, String name) {
        try {
            int v = Integer.parseInt(text.trim());
            if (v < 0) {
                throw bad(name + " must be 0 or more, not " + v);
            }
            return v;
        } catch (NumberFormatException e) {
            throw bad(name + "=" + text + " is not a whole number");
        }
    }

    private static String single(Map<String, List<String>> query, String name, String fallback) {
        List<String> values = query.get(name);
        if (values == null || values.isEmpty()) {
            return fallback;
        }
        if (values.size() > 1) {
            throw bad(name + " is given " + values.size() + " times");
        }
        return values.get(0);
    }

    private static StoreException bad(String message) {
        return new StoreException(StoreException.Kind.BAD_REQUEST, message);
    }
}
