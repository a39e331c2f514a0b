package org.medjava.store.server.http;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names a request's {@code Host} may give when no public URL is configured: this server's own — {@code localhost}
 * (and {@code *.localhost}), every address of its network interfaces, the machine's host names — the address the
 * connection arrived on, and {@code medjava.http.allowed-hosts}. Any port: a port mapping (Docker, a firewall) may
 * change it on the way. Anything else is refused (400 "unknown host") rather than echoed into absolute links, where
 * it would poison caches and links (and let a DNS-rebinding page talk to a store on the loopback).
 */
public final class AllowedHosts {

    private static final Pattern HOST = Pattern.compile("(\\[([0-9A-Fa-f:.%a-zA-Z]+)\\]|[A-Za-z0-9._-]+)(:[0-9]{1,5})?");

    private final Set<String> names;

    AllowedHosts(Collection<String> names) {
        this.names = Set.copyOf(names);
    }

    /** This machine's names and addresses with {@code configured} (names or addresses, without ports). */
    public static AllowedHosts of(Collection<String> configured) {
        Set<String> all = new HashSet<>(Machine.NAMES);
        for (String name : configured) {
            String host = host(name.trim());
            if (host != null) {
                all.add(host);
            }
        }
        return new AllowedHosts(all);
    }

    /**
     * Whether {@code hostHeader} names this server.
     *
     * @param localAddress the address the request's connection arrived on (the listener's own), or null
     */
    public boolean accepts(String hostHeader, String localAddress) {
        String host = hostHeader == null ? null : host(hostHeader.trim());
        if (host == null) {
            return false;
        }
        return names.contains(host) || host.endsWith(".localhost")
                || (localAddress != null && host.equals(normal(localAddress)));
    }

    /** The host of a Host header's value, lower case, IPv6 without brackets; null when malformed. */
    static String host(String value) {
        Matcher m = HOST.matcher(value);
        if (!m.matches()) {
            return null;
        }
        return normal(m.group(2) != null ? m.group(2) : m.group(1));
    }

    private static String normal(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        int zone = h.indexOf('%');
        if (zone > 0) {
            h = h.substring(0, zone);
        }
        if (h.contains(":")) { // IPv6: one spelling (0:0:0:0:0:0:0:1 and ::1 alike)
            try {
                return InetAddress.getByName(h).getHostAddress().replaceAll("%.*", "");
            } catch (UnknownHostException e) {
                return h;
            }
        }
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }

    /** The machine's own names, looked up once. */
    private static final class Machine {
        static final Set<String> NAMES = lookUp();

        private static Set<String> lookUp() {
            Set<String> names = new HashSet<>(Set.of("localhost", "127.0.0.1", normal("::1")));
            try {
                for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                    for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                        names.add(normal(a.getHostAddress()));
                    }
                }
            } catch (SocketException e) {
                // the loopback names above remain
            }
            try {
                InetAddress local = InetAddress.getLocalHost();
                names.add(normal(local.getHostName()));
                names.add(normal(local.getCanonicalHostName()));
            } catch (UnknownHostException e) {
                // no host name: addresses and localhost remain
            }
            return Set.copyOf(names);
        }
    }
}
