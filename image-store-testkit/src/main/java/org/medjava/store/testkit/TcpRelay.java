package org.medjava.store.testkit;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A transparent TCP relay on a free loopback port in front of a real server (S3Proxy, a store): every byte goes
 * through unchanged, so requests, signatures included, reach the server exactly as sent. It counts the bytes going to
 * the server, so that a test can act (kill the server) at an exact point of a large upload instead of after a guessed
 * delay. While the server is down, or while the relay is told to {@link #refuse}, each new connection is reset at
 * once, as a closed port would refuse it: a server that is unreachable and back in an instant, without a restart.
 */
public final class TcpRelay implements Closeable {

    private final int targetPort;
    private final ServerSocket listener;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "tcp-relay");
        t.setDaemon(true);
        return t;
    });
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong upstreamBytes = new AtomicLong();
    private volatile long triggerAt = Long.MAX_VALUE;
    private volatile Runnable trigger;
    private final AtomicBoolean fired = new AtomicBoolean();
    private volatile long armedAt;
    private volatile long firedAt = -1;
    private volatile byte[] marker = new byte[0];
    private final AtomicInteger markers = new AtomicInteger();
    private volatile boolean refusing;

    private TcpRelay(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        threads.execute(this::acceptLoop);
    }

    public static TcpRelay to(int targetPort) throws IOException {
        return new TcpRelay(targetPort);
    }

    public int port() {
        return listener.getLocalPort();
    }

    /**
     * Runs {@code action} once, on the relaying thread and before those bytes are passed on, as soon as
     * {@code bytes} more bytes have gone towards the server from now on.
     */
    public void whenUpstreamPasses(long bytes, Runnable action) {
        fired.set(false);
        firedAt = -1;
        trigger = action;
        armedAt = upstreamBytes.get();
        triggerAt = armedAt + bytes;
    }

    /** How many bytes had gone towards the server since the trigger was set when it fired; -1: not (yet). */
    public long firedAfter() {
        return firedAt < 0 ? -1 : firedAt - armedAt;
    }

    public boolean fired() {
        return fired.get();
    }

    /**
     * Counts from now on how often {@code ascii} occurs in what goes towards the server (searched per read, so an
     * occurrence split between two reads is missed: use it for request lines, e.g. {@code "partNumber="}).
     */
    public void countUpstream(String ascii) {
        markers.set(0);
        marker = ascii.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    public int counted() {
        return markers.get();
    }

    private void count(byte[] data, int length) {
        byte[] m = marker;
        if (m.length == 0) {
            return;
        }
        outer:
        for (int i = 0; i <= length - m.length; i++) {
            for (int j = 0; j < m.length; j++) {
                if (data[i + j] != m[j]) {
                    continue outer;
                }
            }
            markers.incrementAndGet();
        }
    }

    public void disarm() {
        triggerAt = Long.MAX_VALUE;
        trigger = null;
    }

    /** From now on, resets every connection, open or new ({@code true}); relays again ({@code false}). */
    public void refuse(boolean refuse) {
        refusing = refuse;
        if (refuse) {
            for (Socket s : open) {
                reset(s);
            }
        }
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            threads.execute(() -> connect(client));
        }
    }

    private void connect(Socket client) {
        if (refusing) {
            reset(client);
            return;
        }
        Socket server = new Socket();
        try {
            server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 2000);
        } catch (IOException down) {
            reset(client);
            closeQuietly(server);
            return;
        }
        open.add(client);
        open.add(server);
        AtomicInteger running = new AtomicInteger(2);
        threads.execute(() -> pump(client, server, true, running));
        threads.execute(() -> pump(server, client, false, running));
    }

    private void pump(Socket from, Socket to, boolean upstream, AtomicInteger running) {
        byte[] buffer = new byte[64 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            for (int n; (n = in.read(buffer)) >= 0; ) {
                if (upstream) {
                    count(buffer, n);
                    long total = upstreamBytes.addAndGet(n);
                    Runnable action = trigger;
                    if (action != null && total >= triggerAt && fired.compareAndSet(false, true)) {
                        firedAt = total;
                        action.run();
                    }
                }
                out.write(buffer, 0, n);
                out.flush();
            }
            to.shutdownOutput();
        } catch (IOException e) {
            // one side is gone: so is the connection, both ways
            reset(from);
            reset(to);
        }
        if (running.decrementAndGet() == 0) {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0); // RST, not FIN: the peer sees a failed connection, not an ended response
        } catch (SocketException ignored) {
            // closed already
        }
        closeQuietly(socket);
    }

    private void closeQuietly(Socket socket) {
        open.remove(socket);
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }

    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException ignored) {
            // nothing to do
        }
        for (Socket s : open) {
            closeQuietly(s);
        }
        threads.shutdownNow();
    }
}
