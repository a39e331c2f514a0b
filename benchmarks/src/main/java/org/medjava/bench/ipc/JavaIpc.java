package org.medjava.bench.ipc;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The Java side of experiment 1 (same-host IPC), the same protocol as {@code src/main/c/ipc/ipc.c}:
 * <pre>
 *   JavaIpc --mechs ... --patterns ... --sizes ... --warmup W --runs R --budget B --min N --max N --fork K
 *           --dir DIR [--pin] [--timeout S]          the client: starts the server JVM, prints the CSV lines
 *   JavaIpc --server [--timeout S]                   the server: one case per line on stdin, "done" after each
 * </pre>
 * Mechanisms: {@code tcp} (SocketChannel on 127.0.0.1, TCP_NODELAY), {@code uds} (SocketChannel on a
 * {@link UnixDomainSocketAddress}, Java 16+), {@code fifo} (two named pipes made with {@code mkfifo}, read and
 * written through FileChannels: Java cannot make a FIFO itself), {@code shm} (a file in /dev/shm mapped by both
 * processes; each message rings a one-byte doorbell through the FIFOs, the only blocking wake-up Java 17 can
 * reach without native code: no futex, no spinning). Messages carry their sequence number in their first 8 bytes,
 * checked by the receiver. A watchdog thread halts either process after {@code --timeout} seconds.
 */
public final class JavaIpc {
    private static final int SHM_RING_BYTES = 4 << 20;
    private static final int SHM_MAX_SLOTS = 1024;

    private JavaIpc() {
    }

    public static void main(String[] args) throws Exception {
        List<String> a = Arrays.asList(args);
        int timeout = a.contains("--timeout") ? Integer.parseInt(a.get(a.indexOf("--timeout") + 1)) : 600;
        watchdog(timeout);
        if (a.contains("--server")) {
            server();
        } else {
            client(args, timeout);
        }
        System.exit(0);
    }

    private static void watchdog(int seconds) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(seconds * 1000L);
                System.err.println("ipc (java): still running after " + seconds + " s, giving up");
                Runtime.getRuntime().halt(3);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "ipc-watchdog");
        t.setDaemon(true);
        t.start();
    }

    // ---- the client: sets up every case, times the runs --------------------------------------------------------

    private static void client(String[] args, int timeout) throws Exception {
        List<String> mechs = List.of("tcp", "uds", "fifo", "shm");
        List<String> patterns = List.of("oneway", "roundtrip");
        List<Integer> sizes = IpcPlan.SIZES;
        int warmup = 1;
        int runs = 3;
        int fork = 0;
        long budget = 16L << 20;
        long min = 50;
        long max = 10_000;
        boolean pin = false;
        Path dir = Path.of(System.getProperty("java.io.tmpdir"));
        for (int i = 0; i < args.length; i++) {
            String v = i + 1 < args.length ? args[i + 1] : "";
            switch (args[i]) {
                case "--pin": pin = true; continue;
                case "--mechs": mechs = List.of(v.split(",")); break;
                case "--patterns": patterns = List.of(v.split(",")); break;
                case "--sizes": sizes = Arrays.stream(v.split(",")).map(Integer::valueOf).toList(); break;
                case "--warmup": warmup = Integer.parseInt(v); break;
                case "--runs": runs = Integer.parseInt(v); break;
                case "--fork": fork = Integer.parseInt(v); break;
                case "--budget": budget = Long.parseLong(v); break;
                case "--min": min = Long.parseLong(v); break;
                case "--max": max = Long.parseLong(v); break;
                case "--dir": dir = Path.of(v); break;
                case "--timeout": break;
                default: throw new IllegalArgumentException("unknown argument " + args[i]);
            }
            i++;
        }
        List<String> server = Pinning.on(pin, 1, List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx256m", "-cp", System.getProperty("java.class.path"), JavaIpc.class.getName(),
                "--server", "--timeout", Integer.toString(timeout)));
        Process p = new ProcessBuilder(server).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        PrintStream out = System.out;
        try (PrintWriter control = new PrintWriter(p.getOutputStream(), true, StandardCharsets.US_ASCII);
             BufferedReader done = new BufferedReader(new InputStreamReader(p.getInputStream(),
                     StandardCharsets.US_ASCII))) {
            for (String mech : mechs) {
                for (String pattern : patterns) {
                    for (int size : sizes) {
                        long n = Math.max(min, Math.min(max, budget / size));
                        double[] seconds = clientCase(mech, pattern.equals("roundtrip"), size, n, warmup + runs,
                                dir, control);
                        String line = done.readLine();
                        if (!"done".equals(line)) {
                            throw new IOException("the Java IPC server failed in " + mech + " " + pattern + " "
                                    + size + " (answered " + line + ")");
                        }
                        for (int r = warmup; r < seconds.length; r++) {
                            out.printf(Locale.ROOT, "java,%s,%s,%d,%d,%d,%d,%.9f%n", mech, pattern, size, fork,
                                    r - warmup, n, seconds[r]);
                        }
                        out.flush();
                    }
                }
            }
        }
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("the Java IPC server did not end");
        }
    }

    /** One case on the client side: the endpoint, the control line to the server, the timed runs. */
    private static double[] clientCase(String mech, boolean roundtrip, int size, long n, int rounds, Path dir,
                                       PrintWriter control) throws IOException {
        String head = mech + " " + (roundtrip ? "roundtrip" : "oneway") + " " + size + " " + n + " " + rounds + " ";
        long id = ProcessHandle.current().pid();
        switch (mech) {
            case "tcp": {
                try (ServerSocketChannel listen = ServerSocketChannel.open()) {
                    listen.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
                    control.println(head + ((InetSocketAddress) listen.getLocalAddress()).getPort());
                    try (SocketChannel s = listen.accept()) {
                        s.setOption(StandardSocketOptions.TCP_NODELAY, true);
                        return time(new StreamLink(s, s), roundtrip, size, n, rounds);
                    }
                }
            }
            case "uds": {
                Path sock = dir.resolve("ipc-java-" + id + ".sock");
                Files.deleteIfExists(sock);
                try (ServerSocketChannel listen = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
                    listen.bind(UnixDomainSocketAddress.of(sock), 1);
                    control.println(head + sock);
                    try (SocketChannel s = listen.accept()) {
                        return time(new StreamLink(s, s), roundtrip, size, n, rounds);
                    }
                } finally {
                    Files.deleteIfExists(sock);
                }
            }
            case "fifo":
            case "shm": {
                Path c2s = dir.resolve("ipc-java-c2s-" + id);
                Path s2c = dir.resolve("ipc-java-s2c-" + id);
                mkfifo(c2s);
                mkfifo(s2c);
                Path shm = null;
                try {
                    if (mech.equals("fifo")) {
                        control.println(head + c2s + " " + s2c);
                        try (FileChannel w = FileChannel.open(c2s, StandardOpenOption.WRITE);
                             FileChannel r = FileChannel.open(s2c, StandardOpenOption.READ)) {
                            return time(new StreamLink(r, w), roundtrip, size, n, rounds);
                        }
                    }
                    Path shmDir = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm") : dir;
                    shm = shmDir.resolve("medjava-ipc-java-" + id);
                    int slots = slots(size);
                    long bytes = (long) Math.max(slots, 2) * size;
                    try (FileChannel f = FileChannel.open(shm, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                            StandardOpenOption.WRITE)) {
                        MappedByteBuffer map = f.map(FileChannel.MapMode.READ_WRITE, 0, bytes);
                        control.println(head + c2s + " " + s2c + " " + shm);
                        try (FileChannel w = FileChannel.open(c2s, StandardOpenOption.WRITE);
                             FileChannel r = FileChannel.open(s2c, StandardOpenOption.READ)) {
                            return time(new ShmLink(map, slots, r, w), roundtrip, size, n, rounds);
                        }
                    }
                } finally {
                    Files.deleteIfExists(c2s);
                    Files.deleteIfExists(s2c);
                    if (shm != null) {
                        Files.deleteIfExists(shm);
                    }
                }
            }
            default:
                throw new IllegalArgumentException("unknown mechanism " + mech);
        }
    }

    private static double[] time(Link link, boolean roundtrip, int size, long n, int rounds) throws IOException {
        double[] seconds = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            link.client(roundtrip, size, n);
            seconds[r] = (System.nanoTime() - t0) / 1e9;
        }
        return seconds;
    }

    private static int slots(int size) {
        return Math.max(1, Math.min(SHM_MAX_SLOTS, SHM_RING_BYTES / size));
    }

    private static void mkfifo(Path fifo) throws IOException {
        Files.deleteIfExists(fifo);
        try {
            Process p = new ProcessBuilder("mkfifo", "-m", "600", fifo.toString()).inheritIO().start();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("mkfifo " + fifo + " failed");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted in mkfifo", e);
        }
    }

    // ---- the server: one case per control line -----------------------------------------------------------------

    private static void server() throws IOException {
        BufferedReader control = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        for (String line = control.readLine(); line != null; line = control.readLine()) {
            String[] f = line.split(" ");
            String mech = f[0];
            boolean roundtrip = f[1].equals("roundtrip");
            int size = Integer.parseInt(f[2]);
            long n = Long.parseLong(f[3]);
            int rounds = Integer.parseInt(f[4]);
            List<Closeable> open = new ArrayList<>();
            try {
                Link link;
                switch (mech) {
                    case "tcp": {
                        SocketChannel s = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                                Integer.parseInt(f[5])));
                        open.add(s);
                        s.setOption(StandardSocketOptions.TCP_NODELAY, true);
                        link = new StreamLink(s, s);
                        break;
                    }
                    case "uds": {
                        SocketChannel s = SocketChannel.open(UnixDomainSocketAddress.of(f[5]));
                        open.add(s);
                        link = new StreamLink(s, s);
                        break;
                    }
                    default: {
                        FileChannel r = FileChannel.open(Path.of(f[5]), StandardOpenOption.READ);
                        open.add(r);
                        FileChannel w = FileChannel.open(Path.of(f[6]), StandardOpenOption.WRITE);
                        open.add(w);
                        if (mech.equals("fifo")) {
                            link = new StreamLink(r, w);
                        } else {
                            try (FileChannel shm = FileChannel.open(Path.of(f[7]), StandardOpenOption.READ,
                                    StandardOpenOption.WRITE)) {
                                link = new ShmLink(shm.map(FileChannel.MapMode.READ_WRITE, 0, shm.size()), slots(size),
                                        r, w);
                            }
                        }
                    }
                }
                for (int round = 0; round < rounds; round++) {
                    link.server(roundtrip, size, n);
                }
            } finally {
                for (Closeable c : open) {
                    c.close();
                }
            }
            System.out.println("done");
            System.out.flush();
        }
    }

    // ---- the two kinds of link ---------------------------------------------------------------------------------

    private interface Link {
        void client(boolean roundtrip, int size, long n) throws IOException;

        void server(boolean roundtrip, int size, long n) throws IOException;
    }

    static void writeAll(ByteChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    static void readAll(ByteChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new EOFException("peer closed early");
            }
        }
    }

    static void check(long got, long seq) throws IOException {
        if (got != seq) {
            throw new IOException("message " + seq + " arrived as " + got);
        }
    }

    /** A byte stream each way (one socket, or two FIFOs); messages in a direct buffer. */
    private static final class StreamLink implements Link {
        private final ByteChannel in;
        private final ByteChannel out;
        private final ByteBuffer one = ByteBuffer.allocateDirect(1);
        private ByteBuffer msg;
        private ByteBuffer reply;

        StreamLink(ByteChannel in, ByteChannel out) {
            this.in = in;
            this.out = out;
        }

        private void buffers(int size) {
            if (msg == null || msg.capacity() != size) {
                msg = ByteBuffer.allocateDirect(size);
                reply = ByteBuffer.allocateDirect(size);
                for (int i = 0; i < size; i++) {
                    msg.put(i, (byte) 'x');
                }
            }
        }

        @Override
        public void client(boolean roundtrip, int size, long n) throws IOException {
            buffers(size);
            for (long i = 0; i < n; i++) {
                msg.clear();
                msg.putLong(0, i);
                writeAll(out, msg);
                if (roundtrip) {
                    reply.clear();
                    readAll(in, reply);
                    check(reply.getLong(0), i);
                }
            }
            if (!roundtrip) {
                one.clear();
                readAll(in, one);
            }
        }

        @Override
        public void server(boolean roundtrip, int size, long n) throws IOException {
            buffers(size);
            for (long i = 0; i < n; i++) {
                reply.clear();
                readAll(in, reply);
                check(reply.getLong(0), i);
                if (roundtrip) {
                    reply.flip();
                    writeAll(out, reply);
                }
            }
            if (!roundtrip) {
                one.clear().put(0, (byte) 'a');
                writeAll(out, one);
            }
        }
    }

    /**
     * Shared memory: messages are copied into and out of the mapping (a ring of slots one way, two regions for the
     * round trip); one doorbell byte per message wakes the peer through a FIFO, and in the one-way pattern every
     * byte back is a slot given back (credit), as in the C harness.
     */
    private static final class ShmLink implements Link {
        private final MappedByteBuffer map;
        private final int slots;
        private final ByteChannel bellsIn;
        private final ByteChannel bellsOut;
        private final ByteBuffer bells = ByteBuffer.allocateDirect(SHM_MAX_SLOTS);
        private final ByteBuffer one = ByteBuffer.allocateDirect(1);
        private byte[] msg = new byte[0];
        private byte[] copy = new byte[0];

        ShmLink(MappedByteBuffer map, int slots, ByteChannel bellsIn, ByteChannel bellsOut) {
            this.map = map;
            this.slots = slots;
            this.bellsIn = bellsIn;
            this.bellsOut = bellsOut;
        }

        private void buffers(int size) {
            if (msg.length != size) {
                msg = new byte[size];
                copy = new byte[size];
                Arrays.fill(msg, (byte) 'x');
            }
        }

        private int bells(int max) throws IOException {
            bells.clear().limit(max);
            int n;
            do {
                n = bellsIn.read(bells);
            } while (n == 0);
            if (n < 0) {
                throw new EOFException("peer closed early");
            }
            return n;
        }

        private void ring() throws IOException {
            one.clear();
            writeAll(bellsOut, one);
        }

        @Override
        public void client(boolean roundtrip, int size, long n) throws IOException {
            buffers(size);
            ByteBuffer stamp = ByteBuffer.wrap(msg);
            if (roundtrip) {
                for (long i = 0; i < n; i++) {
                    stamp.putLong(0, i);
                    map.put(0, msg);
                    ring();
                    bells(1);
                    map.get(size, copy);
                    check(ByteBuffer.wrap(copy).getLong(0), i);
                }
                return;
            }
            int credits = slots;
            for (long i = 0; i < n; i++) {
                if (credits == 0) {
                    credits += bells(SHM_MAX_SLOTS);
                }
                stamp.putLong(0, i);
                map.put((int) (i % slots) * size, msg);
                ring();
                credits--;
            }
            while (credits < slots) { // every slot given back: the server has read every message
                credits += bells(SHM_MAX_SLOTS);
            }
        }

        @Override
        public void server(boolean roundtrip, int size, long n) throws IOException {
            buffers(size);
            ByteBuffer seq = ByteBuffer.wrap(copy);
            if (roundtrip) {
                for (long i = 0; i < n; i++) {
                    bells(1);
                    map.get(0, copy);
                    check(seq.getLong(0), i);
                    map.put(size, copy);
                    ring();
                }
                return;
            }
            long i = 0;
            while (i < n) {
                int rung = bells(SHM_MAX_SLOTS);
                for (int b = 0; b < rung; b++, i++) {
                    map.get((int) (i % slots) * size, copy);
                    check(seq.getLong(0), i);
                }
                bells.flip(); // one credit per message read
                writeAll(bellsOut, bells);
            }
        }
    }
}
