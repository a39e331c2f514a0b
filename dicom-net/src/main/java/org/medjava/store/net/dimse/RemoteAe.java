package org.medjava.store.net.dimse;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Another DICOM application: its AE title, where it listens and whether over DICOM TLS. Lists of them are settings
 * of the form {@code AE=host:port, AE2=host:port tls} ({@code medjava.dicom.remotes}; the move destinations'
 * entries may say more, {@link MoveDestination}); {@code tls} after the port: associations with it use DICOM TLS.
 *
 * @param tls the TLS settings associations with it use; null: plain TCP
 */
public record RemoteAe(String aeTitle, String host, int port, DicomTls tls) {

    public RemoteAe {
        aeTitle = AeTitles.check(aeTitle);
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("AE " + aeTitle + ": no host");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("AE " + aeTitle + ": port " + port + " is not 1 to 65535");
        }
    }

    /** Over plain TCP. */
    public RemoteAe(String aeTitle, String host, int port) {
        this(aeTitle, host, port, null);
    }

    /** A list without TLS entries. */
    public static Map<String, RemoteAe> parseList(String setting, String settingName) {
        return parseList(setting, settingName, () -> {
            throw new IllegalArgumentException("DICOM TLS is not available here");
        });
    }

    /**
     * @param tls the settings for the entries marked {@code tls}, asked for only when there is one
     * @return the entries by AE title, in the order given
     */
    public static Map<String, RemoteAe> parseList(String setting, String settingName, Supplier<DicomTls> tls) {
        Map<String, RemoteAe> list = new LinkedHashMap<>();
        for (String entry : Settings.entries(setting)) {
            String[] words = entry.split("\\s+");
            boolean secure = words.length == 2 && words[1].toLowerCase(Locale.ROOT).equals("tls");
            if (words.length > 2 || words.length == 2 && !secure) {
                throw new IllegalArgumentException(settingName + ": \"" + entry + "\" is not AE=host:port or"
                        + " AE=host:port tls");
            }
            RemoteAe ae = parse(entry, words[0], settingName, secure ? tls.get() : null);
            list.put(ae.aeTitle(), ae);
        }
        return Collections.unmodifiableMap(list);
    }

    /** The AE of {@code address} ({@code AE=host:port}), the start of a list's {@code entry}. */
    static RemoteAe parse(String entry, String address, String settingName, DicomTls tls) {
        int eq = address.indexOf('=');
        int colon = address.lastIndexOf(':');
        if (eq <= 0 || colon < eq) {
            throw new IllegalArgumentException(settingName + ": \"" + entry + "\" is not AE=host:port");
        }
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(settingName + ": \"" + entry + "\" has no numeric port");
        }
        return new RemoteAe(address.substring(0, eq), address.substring(eq + 1, colon).trim(), port, tls);
    }

    @Override
    public String toString() {
        return aeTitle + "@" + host + ":" + port + (tls == null ? "" : " (TLS)");
    }
}
