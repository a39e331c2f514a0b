package org.medjava.store.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

/** Free loopback ports, and waiting for a server to listen. */
public final class Ports {

    private Ports() {
    }

    /** Below Linux's ephemeral range (32768-60999): an outgoing connection never takes a port handed out here. */
    private static final int LOW = 15_000;
    private static final int HIGH = 32_000;
    private static final java.util.Set<Integer> GIVEN = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * A loopback port free now, never handed out before in this JVM, and outside the ephemeral range: a server that
     * binds it only later (a store opens its port once deployed) does not find it taken by another process's
     * outgoing connection meanwhile, as a port from {@code new ServerSocket(0)} could be.
     */
    public static int free() {
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        for (int tries = 0; tries < 1000; tries++) {
            int port = random.nextInt(LOW, HIGH);
            if (!GIVEN.add(port)) {
                continue;
            }
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(false);
                s.bind(new InetSocketAddress(port));
                return port;
            } catch (IOException taken) {
                // in use: another
            }
        }
        throw new UncheckedIOException(new IOException("no free port in " + LOW + "-" + HIGH));
    }

    /** Waits until something accepts connections on 127.0.0.1:{@code port}, or fails after {@code timeout}. */
    public static void awaitListening(int port, Duration timeout, Process process, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (process != null && !process.isAlive()) {
                throw new IllegalStateException(what + " exited with " + process.exitValue() + " before listening");
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException(what + " not listening on port " + port + " after " + timeout);
    }
}
