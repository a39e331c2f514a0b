package org.medjava.viewer.model;

import org.medjava.filter.Implementation;
import org.medjava.filter.Region;

/**
 * One filter application in a chain: which filter, its canonical parameters ({@code "n=3 p=75"}), where (null for
 * the whole image), which implementation ran, the plugin that ran it (null when unknown) and whether it ran on the
 * grey stored values ({@code false}: on the 8-bit image).
 */
public record FilterStep(String filterId, String params, Region region, Implementation implementation,
                         Plugin plugin, boolean storedValues) {

    /** The plugin JAR that ran a step, as recorded in a derived object's Contributing Equipment. */
    public record Plugin(String id, String version, String sha256) {
    }

    /** A step on the 8-bit image by an unrecorded plugin. */
    public FilterStep(String filterId, String params, Region region, Implementation implementation) {
        this(filterId, params, region, implementation, null, false);
    }

    /** {@code "blur n=3 @10,10,100,50"}: what the derivation description records for this step. */
    public String describe() {
        StringBuilder b = new StringBuilder(filterId);
        if (!params.isBlank()) {
            b.append(' ').append(params);
        }
        if (region != null) {
            b.append(" @").append(region);
        }
        return b.toString();
    }
}
