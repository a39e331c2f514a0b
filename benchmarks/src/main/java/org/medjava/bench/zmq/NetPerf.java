package org.medjava.bench.zmq;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.zeromq.SocketType;
import org.zeromq.ZMQ;

/**
 * The Java side of the ØMQ experiment, one process per role, like ØMQ's perf tools:
 * <pre>
 *   NetPerf jeromq|raw local_lat|remote_lat|local_thr|remote_thr ENDPOINT PLAN TIMEOUT_SECONDS
 * </pre>
 * {@code jeromq}: JeroMQ (pure Java ØMQ) with the sockets of ØMQ's tools (REP/REQ for latency, PULL/PUSH for
 * throughput), default options. {@code raw}: the raw-socket baseline on blocking NIO channels with direct buffers,
 * {@code tcp://127.0.0.1:PORT} (TCP_NODELAY) or {@code ipc:///PATH} (a Unix domain socket); the same message
 * pattern as the C {@code raw_perf}: one write per message, each message read in full. Output lines and the plan are
 * those of {@code benchmarks/src/main/c-zmq/perf_common.h}. A watchdog ends a process that outlives its timeout.
 */
public final class NetPerf {
    private final String role;
    private final PerfPlan plan;
    private final PrintStream out = System.out;

    private NetPerf(String role, PerfPlan plan) {
        this.role = role;
        this.plan = plan;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: NetPerf jeromq|raw local_lat|remote_lat|local_thr|remote_thr ENDPOINT PLAN "
                    + "TIMEOUT_SECONDS");
            System.exit(2);
        }
        long timeoutMillis = Long.parseLong(args[4]) * 1000;
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(timeoutMillis);
                System.err.println("NetPerf " + args[0] + " " + args[1] + ": timed out after " + args[4] + " s");
                Runtime.getRuntime().halt(3);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        NetPerf perf = new NetPerf(args[1], PerfPlan.parse(args[3]));
        switch (args[0]) {
            case "jeromq": perf.jeromq(args[2]); break;
            case "raw": perf.raw(args[2]); break;
            default: throw new IllegalArgumentException("implementation must be jeromq or raw, got " + args[0]);
        }
    }

    private boolean local() {
        return role.startsWith("local_");
    }

    private boolean latency() {
        return role.endsWith("_lat");
    }

    private void result(String test, PerfPlan.Step step, long nanos) {
        out.printf(Locale.ROOT, "result %s %d %d %.9f%n", test, step.size(), step.count(), nanos / 1e9);
        out.flush();
    }

    // ---- JeroMQ -----------------------------------------------------------------------------------------------

    private void jeromq(String endpoint) {
        // a plain context, not ZContext: ZContext closes its sockets with linger 0 and would drop the messages
        // remote_thr has queued but not yet sent
        ZMQ.Context ctx = ZMQ.context(1);
        try {
            ZMQ.Socket s = ctx.socket(latency() ? (local() ? SocketType.REP : SocketType.REQ)
                    : (local() ? SocketType.PULL : SocketType.PUSH));
            if (local()) {
                s.bind(endpoint.equals("tcp://127.0.0.1:0") ? "tcp://127.0.0.1:*" : endpoint);
                out.println("ready " + s.getLastEndpoint());
                out.flush();
            } else {
                s.connect(endpoint);
            }
            for (PerfPlan.Step step : plan.steps()) {
                long total = step.warmup() + step.count();
                byte[] message = new byte[step.size()];
                Arrays.fill(message, (byte) 'm');
                long start = 0;
                for (long k = 0; k < total; k++) {
                    if (latency() && local()) {
                        s.send(check(s.recv(0), step), 0); // echoes the very message
                    } else if (latency()) {
                        if (k == step.warmup()) {
                            start = System.nanoTime();
                        }
                        s.send(message, 0);
                        check(s.recv(0), step);
                    } else if (local()) {
                        check(s.recv(0), step);
                        if (k == step.warmup()) {
                            start = System.nanoTime();
                        }
                    } else {
                        s.send(message, 0);
                    }
                }
                if (latency() != local()) {
                    result(latency() ? "lat" : "thr", step, System.nanoTime() - start);
                }
            }
            s.close(); // default linger (-1): queued messages are still sent while the context terminates
        } finally {
            ctx.term();
        }
    }

    private static byte[] check(byte[] received, PerfPlan.Step step) {
        if (received == null || received.length != step.size()) {
            throw new IllegalStateException("received " + (received == null ? "nothing" : received.length + " bytes")
                    + ", expected " + step.size());
        }
        return received;
    }

    // ---- raw sockets ------------------------------------------------------------------------------------------

    private void raw(String endpoint) throws IOException, InterruptedException {
        try (SocketChannel ch = local() ? accept(endpoint) : connect(endpoint)) {
            ByteBuffer buf = ByteBuffer.allocateDirect(plan.maxSize());
            for (PerfPlan.Step step : plan.steps()) {
                long total = step.warmup() + step.count();
                long start = 0;
                for (long k = 0; k < total; k++) {
                    if (latency() && local()) {
                        readExact(ch, buf, step.size());
                        writeAll(ch, buf, step.size());
                    } else if (latency()) {
                        if (k == step.warmup()) {
                            start = System.nanoTime();
                        }
                        writeAll(ch, buf, step.size());
                        readExact(ch, buf, step.size());
                    } else if (local()) {
                        readExact(ch, buf, step.size());
                        if (k == step.warmup()) {
                            start = System.nanoTime();
                        }
                    } else {
                        writeAll(ch, buf, step.size());
                    }
                }
                if (latency() != local()) {
                    result(latency() ? "lat" : "thr", step, System.nanoTime() - start);
                }
            }
        }
    }

    private static void writeAll(SocketChannel ch, ByteBuffer buf, int size) throws IOException {
        buf.clear().limit(size);
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
    }

    private static void readExact(SocketChannel ch, ByteBuffer buf, int size) throws IOException {
        buf.clear().limit(size);
        while (buf.hasRemaining()) {
            if (ch.read(buf) < 0) {
                throw new IOException("connection closed early");
            }
        }
    }

    private SocketChannel accept(String endpoint) throws IOException {
        SocketAddress address = address(endpoint);
        boolean unix = address instanceof UnixDomainSocketAddress;
        if (unix) {
            Files.deleteIfExists(((UnixDomainSocketAddress) address).getPath());
        }
        try (ServerSocketChannel server = ServerSocketChannel.open(unix ? StandardProtocolFamily.UNIX
                : StandardProtocolFamily.INET)) {
            server.bind(address, 1);
            out.println("ready " + (unix ? endpoint
                    : "tcp://127.0.0.1:" + ((InetSocketAddress) server.getLocalAddress()).getPort()));
            out.flush();
            SocketChannel ch = server.accept();
            if (unix) {
                Files.deleteIfExists(((UnixDomainSocketAddress) address).getPath());
            } else {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            }
            return ch;
        }
    }

    /** Connects, retrying for up to 10 s while the local end is not listening yet. */
    private static SocketChannel connect(String endpoint) throws IOException, InterruptedException {
        SocketAddress address = address(endpoint);
        boolean unix = address instanceof UnixDomainSocketAddress;
        for (int tries = 0; ; tries++) {
            SocketChannel ch = SocketChannel.open(unix ? StandardProtocolFamily.UNIX : StandardProtocolFamily.INET);
            try {
                ch.connect(address);
                if (!unix) {
                    ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                }
                return ch;
            } catch (IOException e) {
                ch.close();
                if (tries >= 1000) {
                    throw e;
                }
                Thread.sleep(10);
            }
        }
    }

    /** {@code tcp://127.0.0.1:PORT} or {@code ipc:///PATH}; nothing but the loopback. */
    static SocketAddress address(String endpoint) throws java.net.UnknownHostException {
        if (endpoint.startsWith("tcp://127.0.0.1:")) {
            return new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}),
                    Integer.parseInt(endpoint.substring("tcp://127.0.0.1:".length())));
        }
        if (endpoint.startsWith("ipc://")) {
            return UnixDomainSocketAddress.of(Path.of(endpoint.substring("ipc://".length())));
        }
        throw new IllegalArgumentException("endpoint must be tcp://127.0.0.1:PORT or ipc:///PATH, got " + endpoint);
    }
}
