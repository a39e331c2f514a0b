package org.medjava.filter;

/** The version of this API; plugins name the version they were compiled for in their manifest. */
public final class FilterApi {
    /**
     * {@code major.minor}. A host accepts a plugin built for the same major version and a minor version no newer
     * than its own. 1.1 added grey data ({@link GrayRaster16}, {@link Filter#applyGray16}); plugins built for 1.0
     * keep loading and refuse grey data. 1.2 added cooperative cancellation ({@link Cancellation#check()}); plugins
     * built for 1.0/1.1 keep loading and simply never check (a host stops them by quarantine, not cooperation). 1.3 added
     * plain-language help ({@link ParamSpec#withHelp}, {@link ParamSpec#label()}, {@link ParamSpec#help()},
     * {@link FilterDescriptor#help()}); plugins built for 1.0 to 1.2 keep loading, their parameters labelled by name
     * with empty help, and hosts show the spec description instead. 1.4 added filters made from a declaration
     * ({@link DeclaredFilter}, {@link FilterDeclaration}, {@link Kernel}); plugins implementing {@link Filter}
     * directly keep loading unchanged. 1.5 added descriptors whose prose comes from a resource beside the filter's
     * class ({@link FilterDescriptor.Builder#text}, parameters declared without texts); inline texts keep working.
     */
    public static final String VERSION = "1.5";

    private FilterApi() {
    }

    /** Whether a plugin compiled against {@code pluginApiVersion} can run on this API. */
    public static boolean isCompatible(String pluginApiVersion) {
        if (pluginApiVersion == null) {
            return false;
        }
        String[] mine = VERSION.split("\\.");
        String[] theirs = pluginApiVersion.trim().split("\\.");
        if (theirs.length != 2) {
            return false;
        }
        try {
            return Integer.parseInt(theirs[0]) == Integer.parseInt(mine[0])
                    && Integer.parseInt(theirs[1]) <= Integer.parseInt(mine[1]);
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
