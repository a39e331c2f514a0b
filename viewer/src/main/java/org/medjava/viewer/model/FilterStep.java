package org.medjava.viewer.model;

import org.medjava.filter.Implementation;
import org.medjava.filter.Region;

/**
 * One filter application in a chain: which filter, its canonical parameters ({@code "n=3 p=75"}), where (null for
 * the whole image) and which implementation ran.
 */
public record FilterStep(String filterId, String params, Region region, Implementation implementation) {

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
