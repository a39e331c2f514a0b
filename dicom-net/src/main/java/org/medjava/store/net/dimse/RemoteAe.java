package org.medjava.store.net.dimse;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Another DICOM application: its AE title and where it listens. Lists of them are settings of the form
 * {@code AE=host:port, AE2=host:port} ({@code medjava.dicom.move-destinations}, {@code medjava.dicom.remotes}).
 */
public record RemoteAe(String aeTitle, String host, int port) {

    public RemoteAe {
        aeTitle = AeTitles.check(aeTitle);
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("AE " + aeTitle + ": no host");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("AE " + aeTitle + ": port " + port + " is not 1 to 65535");
        }
    }

    /** @return the entries by AE title, in the order given */
    public static Map<String, RemoteAe> parseList(String setting, String settingName) {
        Map<String, RemoteAe> list = new LinkedHashMap<>();
        for (String entry : Settings.entries(setting)) {
            int eq = entry.indexOf('=');
            int colon = entry.lastIndexOf(':');
            if (eq <= 0 || colon < eq) {
                throw new IllegalArgumentException(settingName + ": \"" + entry + "\" is not AE=host:port");
            }
            int port;
            try {
                port = Integer.parseInt(entry.substring(colon + 1).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(settingName + ": \"" + entry + "\" has no numeric port");
            }
            RemoteAe ae = new RemoteAe(entry.substring(0, eq), entry.substring(eq + 1, colon).trim(), port);
            list.put(ae.aeTitle(), ae);
        }
        return Collections.unmodifiableMap(list);
    }

    @Override
    public String toString() {
        return aeTitle + "@" + host + ":" + port;
    }
}
