package org.medjava.viewer.store;

import java.awt.Desktop;
import java.io.IOException;
import java.net.URI;

/** Opens a page in the user's own browser: where single sign-on happens (RFC 8252: no embedded browser). */
@FunctionalInterface
public interface SystemBrowser {
    void open(URI page) throws IOException;

    /** The desktop's default browser. */
    static SystemBrowser desktop() {
        return page -> {
            if (!Desktop.isDesktopSupported() || !Desktop.getDesktop().isSupported(Desktop.Action.BROWSE)) {
                throw new IOException("this desktop cannot open a browser; open " + page + " in one yourself");
            }
            Desktop.getDesktop().browse(page);
        };
    }
}
