package org.medjava.store.core.deid;

/**
 * An instance the engine cannot de-identify safely (an attribute it cannot clean, replace or recognise): nothing of it
 * may be stored or sent.
 */
public final class DeidRefused extends Exception {

    private final String attribute;

    /**
     * @param attribute where, as (GGGG,EEEE), nested ones after their sequence and item ({@code (0040,A730)[1]/...})
     * @param reason    why, in words
     */
    public DeidRefused(String attribute, String reason) {
        super(attribute + ": " + reason);
        this.attribute = attribute;
    }

    /** The attribute that could not be de-identified. */
    public String attribute() {
        return attribute;
    }
}
