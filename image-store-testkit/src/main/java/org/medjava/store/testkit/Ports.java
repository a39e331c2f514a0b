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

    public static int free() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
