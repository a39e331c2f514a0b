package org.medjava.store.server.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.filter.runtime.CallControl;

/**
 * Notices that the client of a request still being worked on has hung up, and cancels that request's filter calls.
 *
 * <p>Why the kernel's socket table and not the container: while a request thread works, Payara's HTTP layer (Grizzly)
 * does not read from the connection, so neither the servlet API nor JAX-RS learns of a hang-up before the response
 * is written. The kernel does: the peer's FIN turns the server's socket to CLOSE_WAIT, a reset removes it from the
 * table. On Linux, {@code /proc/net/tcp} and {@code tcp6} list every socket with both ends and its state; one reader
 * thread scans them a few times a second for the connections being watched (nothing when none is). Elsewhere it
 * watches nothing and the deadline alone bounds the work. Behind a proxy the store sees the proxy's connection,
 * which nginx closes when its client hangs up ({@code proxy_ignore_client_abort off}, the default).
 *
 * <p>One per store, made and closed by the composition root (its reader thread goes with it).
 */
public final class ClientHangups implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ClientHangups.class.getName());
    private static final List<Path> TABLES = List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));
    private static final long POLL_MILLIS = 200;
    private static final String ESTABLISHED = "01";
    private static final String CLOSE_WAIT = "08";
    static final String REASON = "the client closed the connection";

    private final Map<Watch, Boolean> watched = new ConcurrentHashMap<>();
    private final ScheduledExecutorService reader;
    private final boolean available = Files.isReadable(TABLES.get(0));

    /** Starts the reader thread where the kernel lists its sockets (Linux); elsewhere watches nothing. */
    public ClientHangups() {
        reader = available ? Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "client-hangups");
            t.setDaemon(true);
            return t;
        }) : null;
        if (reader != null) {
            reader.scheduleWithFixedDelay(this::scan, POLL_MILLIS, POLL_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /** Stops the reader thread; watches made afterwards are never cancelled. */
    @Override
    public void close() {
        if (reader != null) {
            reader.shutdownNow();
        }
        watched.clear();
    }

    /** One connection being watched until {@link #close()}. */
    public final class Watch implements AutoCloseable {
        final String local;   // "PORT" in upper-case hex, as the table writes it
        final String remote;  // "ADDRESS:PORT" in the table's notation, or null when the address is not IPv4
        final String remotePort;
        final CallControl control;
        volatile boolean seen;

        Watch(String local, String remote, String remotePort, CallControl control) {
            this.local = local;
            this.remote = remote;
            this.remotePort = remotePort;
            this.control = control;
        }

        @Override
        public void close() {
            watched.remove(this);
        }
    }

    /**
     * Watches the connection from {@code remoteAddress:remotePort} to local port {@code localPort}; when its client
     * hangs up, {@code control} is cancelled. Close the watch when the request is done.
     */
    public Watch watch(String remoteAddress, int remotePort, int localPort, CallControl control) {
        String address = ipv4(remoteAddress);
        Watch w = new Watch(port(localPort), address == null ? null : address + ":" + port(remotePort),
                port(remotePort), control);
        if (reader != null && !reader.isShutdown() && remotePort > 0 && localPort > 0) {
            watched.put(w, Boolean.TRUE);
        }
        return w;
    }

    private void scan() {
        if (watched.isEmpty()) {
            return;
        }
        try {
            Map<String, String> states = new java.util.HashMap<>(); // "local port|remote" -> state
            for (Path table : TABLES) {
                if (!Files.isReadable(table)) {
                    continue;
                }
                List<String> lines = Files.readAllLines(table);
                for (int i = 1; i < lines.size(); i++) {
                    String[] f = lines.get(i).trim().split("\\s+");
                    if (f.length < 4) {
                        continue;
                    }
                    String localPort = f[1].substring(f[1].indexOf(':') + 1);
                    states.put(localPort + "|" + f[2], f[3]);
                }
            }
            for (Watch w : watched.keySet()) {
                String state = stateOf(w, states);
                if (state != null && !state.equals(CLOSE_WAIT)) {
                    w.seen |= state.equals(ESTABLISHED);
                    continue;
                }
                // CLOSE_WAIT: the client sent FIN; gone after having been seen: it was reset
                if (state != null || w.seen) {
                    w.control.cancel(REASON);
                    watched.remove(w);
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "reading the socket table: " + e);
        }
    }

    private static String stateOf(Watch w, Map<String, String> states) {
        if (w.remote != null) {
            String s = states.get(w.local + "|" + w.remote);
            if (s != null) {
                return s;
            }
            s = states.get(w.local + "|0000000000000000FFFF0000" + w.remote); // IPv4 mapped into tcp6
            if (s != null) {
                return s;
            }
        }
        for (Map.Entry<String, String> e : states.entrySet()) { // an IPv6 client: match by the two ports
            if (w.remote == null && e.getKey().startsWith(w.local + "|") && e.getKey().endsWith(":" + w.remotePort)) {
                return e.getValue();
            }
        }
        return null;
    }

    private static String port(int port) {
        return String.format(Locale.ROOT, "%04X", port);
    }

    /** An IPv4 address and port as the table writes them: the address's bytes in host (little-endian) order. */
    private static String ipv4(String address) {
        try {
            byte[] b = InetAddress.getByName(address).getAddress(); // a literal: no lookup
            if (b.length != 4) {
                return null;
            }
            return String.format(Locale.ROOT, "%02X%02X%02X%02X", b[3], b[2], b[1], b[0]);
        } catch (UnknownHostException | SecurityException e) {
            return null;
        }
    }
}
