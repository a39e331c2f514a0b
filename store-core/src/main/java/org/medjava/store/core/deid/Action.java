package org.medjava.store.core.deid;

/**
 * An action code of PS3.15 Table E.1-1 (E.1.1). The choices (Z/D, X/Z, X/D, X/Z/D, X/Z/U*) depend on whether the
 * attribute's type in its IOD is 1, 2 or 3, which the engine does not know: {@link DeidOptions.Choice} decides them.
 */
public enum Action {
    /** a non-empty dummy value consistent with the VR */
    D("D"),
    /** zero length (a dummy allowed where the VR needs a value) */
    Z("Z"),
    /** removed */
    X("X"),
    /** kept (sequences are still walked) */
    K("K"),
    /** cleaned: values of similar meaning known to hold no identifying information */
    C("C"),
    /** a UID replaced by another, the same one everywhere within a job */
    U("U"),
    Z_OR_D("Z/D"),
    X_OR_Z("X/Z"),
    X_OR_D("X/D"),
    X_OR_Z_OR_D("X/Z/D"),
    X_OR_Z_OR_U("X/Z/U*");

    private final String code;

    Action(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    /** @throws IllegalArgumentException for a code the table does not use */
    public static Action of(String code) {
        for (Action a : values()) {
            if (a.code.equals(code)) {
                return a;
            }
        }
        throw new IllegalArgumentException("no action code " + code + " in PS3.15 E.1.1");
    }
}
