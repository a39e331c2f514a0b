package org.medjava.cli.store;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** The store seen from outside: whether its port is taken, and what it answers. */
public final class StoreProbe {
    private StoreProbe() {
    }

    /** Whether something accepts connections on host:port. */
    public static boolean listening(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The first free port from {@code port} on (on the loopback). */
    public static int freePortFrom(int port) {
        int p = port;
        while (listening("127.0.0.1", p)) {
            p++;
        }
        return p;
    }

    /**
     * Payara's own HTTP port behind the front on public port {@code port}: the first free one from port + 1000 (8080:
     * 9080), from port - 1000 near the top of the port range.
     */
    public static int backendPortFor(int port) {
        return port + 1000 < 65000 ? freePortFrom(port + 1000) : freePortFrom(port - 1000);
    }

    /**
     * GET {@code path} over HTTP/1.0: the whole reply (status line, headers, body), or "" when it does not answer
     * within 5 s (a hung or SIGSTOPped JVM still accepts connections: only the answer tells).
     */
    public static String get(String host, int port, String path) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 5000);
            socket.setSoTimeout(1000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.0\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream reply = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            while (System.nanoTime() < deadline) {
                int n;
                try {
                    n = in.read(buffer);
                } catch (java.net.SocketTimeoutException e) {
                    continue;
                }
                if (n < 0) {
                    return reply.toString(StandardCharsets.UTF_8);
                }
                reply.write(buffer, 0, n);
            }
            return "";
        } catch (IOException e) {
            return "";
        }
    }

    /** Whether the reply of /health/ready is the store's own UP (Payara answers UP with no checks before it deploys). */
    public static boolean ready(String reply) {
        return reply.matches("(?s)HTTP/1\\.. 200.*") && reply.contains("\"name\"");
    }

    public static boolean ready(String host, int port) {
        return ready(get(host, port, "/health/ready"));
    }

    /** The host the store answers on locally: the bind address when one is set, else loopback. */
    public static String localHost(String bind) {
        return bind == null || bind.isEmpty() || bind.equals("0.0.0.0") || bind.equals("::") || bind.equals("*")
                ? "127.0.0.1" : bind;
    }
}
