package org.medjava.viewer;

import java.awt.GraphicsEnvironment;
import javax.swing.SwingUtilities;
import org.medjava.viewer.filters.FilterCatalog;

/** {@code medjava viewer}: see {@link ViewerOptions#USAGE}. */
public final class ViewerMain {
    private ViewerMain() {
    }

    public static void main(String[] args) throws Exception {
        ViewerOptions options;
        try {
            options = ViewerOptions.parse(args, System.getenv("MEDJAVA_PASSWORD"));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(args.length == 1 && (args[0].equals("--help") || args[0].equals("-h")) ? 0 : 2);
            return;
        }
        if (GraphicsEnvironment.isHeadless()) {
            System.err.println("medjava viewer needs a display (DISPLAY is not set); on a server run it under "
                    + "xvfb-run, or use ./medjava filter for the command line");
            System.exit(2);
        }
        FilterCatalog catalog = ViewerApp.catalog(options);
        SwingUtilities.invokeAndWait(() -> ViewerApp.show(options, catalog));
    }
}
