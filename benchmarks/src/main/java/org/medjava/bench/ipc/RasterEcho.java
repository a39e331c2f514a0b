package org.medjava.bench.ipc;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.medjava.filter.runtime.isolation.Segment;

/**
 * Issue 31's reproduction of the companion paper's comparison: a raster passed to another process and back, through
 * shared memory or copied through a pipe or a Unix domain socket. The other process is this class's {@code main}
 * (no filter), which takes the raster into a heap array and gives it back, as a filter worker does:
 * <ul>
 *   <li>{@code shm}: the raster lies in a {@link Segment} (the filter workers' {@code /dev/shm} mapping); only its
 *       length travels over a Unix domain socket, the echo copies the segment into its array and back and answers
 *       one byte;</li>
 *   <li>{@code shm-in-place}: as {@code shm}, but the echo leaves the raster in the mapping (what a filter reading
 *       and writing the mapping itself would pay: the host's two copies and the doorbell);</li>
 *   <li>{@code uds}: the raster's bytes over a Unix domain socket ({@code SocketChannel}), both ways;</li>
 *   <li>{@code pipe}: the raster's bytes through the echo's standard input and output (two pipes).</li>
 * </ul>
 * Each {@link #roundTrip} ends with the raster back in the caller's array.
 */
public final class RasterEcho implements AutoCloseable {
    /** The mechanisms, as the benchmark's parameter names them. */
    public static final List<String> MECHANISMS = List.of("shm", "shm-in-place", "uds", "pipe");

    private final String mechanism;
    private final Process process;
    private final Path dir;
    private final Segment segment;
    private final SocketChannel channel;
    private final DataOutputStream pipeOut;
    private final DataInputStream pipeIn;
    private final ByteBuffer header = ByteBuffer.allocate(4);

    private RasterEcho(String mechanism, Process process, Path dir, Segment segment, SocketChannel channel) {
        this.mechanism = mechanism;
        this.process = process;
        this.dir = dir;
        this.segment = segment;
        this.channel = channel;
        this.pipeOut = new DataOutputStream(process.getOutputStream());
        this.pipeIn = new DataInputStream(process.getInputStream());
    }

    /** Starts the echo process for {@code mechanism} with room for {@code maxBytes} and waits until it is ready. */
    public static RasterEcho start(String mechanism, int maxBytes) throws IOException {
        if (!MECHANISMS.contains(mechanism)) {
            throw new IllegalArgumentException("mechanism must be one of " + MECHANISMS + ", not " + mechanism);
        }
        Path shm = Path.of("/dev/shm");
        Path dir = Files.createTempDirectory(Files.isDirectory(shm) ? shm : Path.of(System.getProperty(
                "java.io.tmpdir")), "medjava-bench-echo-");
        Segment segment = null;
        if (mechanism.startsWith("shm")) {
            segment = Segment.create(dir.resolve("segment"));
            segment.ensure(maxBytes);
        }
        Path socket = dir.resolve("echo.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            Process process = new ProcessBuilder(ChildProcess.java().toString(), "-Xmx" + (3L * maxBytes / (1 << 20)
                    + 64) + "m", "-cp", ChildProcess.classpath(), RasterEcho.class.getName(), mechanism,
                    socket.toString(), String.valueOf(maxBytes)).redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            SocketChannel channel = server.accept(); // the echo connects for every mechanism: it is ready
            return new RasterEcho(mechanism, process, dir, segment, channel);
        }
    }

    /** {@code raster} to the echo process and back into {@code raster}. */
    public void roundTrip(byte[] raster) throws IOException {
        switch (mechanism) {
            case "shm", "shm-in-place" -> {
                segment.put(raster, 0, raster.length);
                header.clear();
                header.putInt(raster.length).flip();
                writeFully(channel, header);
                header.clear().limit(1);
                readFully(channel, header);
                segment.get(raster, 0, raster.length);
            }
            case "uds" -> {
                header.clear();
                header.putInt(raster.length).flip();
                writeFully(channel, header);
                writeFully(channel, ByteBuffer.wrap(raster));
                readFully(channel, ByteBuffer.wrap(raster));
            }
            default -> {
                pipeOut.writeInt(raster.length);
                pipeOut.write(raster);
                pipeOut.flush();
                pipeIn.readFully(raster);
            }
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
        pipeOut.close();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        if (segment != null) {
            segment.close();
        }
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        }
        Files.deleteIfExists(dir);
    }

    private static void writeFully(SocketChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    private static void readFully(SocketChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                throw new IOException("the echo process closed its socket");
            }
        }
    }

    // ---- the echo process --------------------------------------------------------------------------------------

    /** {@code RasterEcho MECHANISM SOCKET MAX_BYTES}: echoes rasters until its host closes the channel. */
    public static void main(String[] args) throws IOException {
        String mechanism = args[0];
        Path socket = Path.of(args[1]);
        byte[] raster = new byte[Integer.parseInt(args[2])];
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            ByteBuffer header = ByteBuffer.allocate(4);
            ByteBuffer ack = ByteBuffer.allocate(1);
            if (mechanism.equals("pipe")) {
                echoPipe(raster);
                return;
            }
            boolean inPlace = mechanism.equals("shm-in-place");
            try (Segment segment = mechanism.startsWith("shm") ? Segment.open(socket.resolveSibling("segment"))
                    : null) {
                while (true) {
                    header.clear();
                    while (header.hasRemaining()) {
                        if (channel.read(header) < 0) {
                            return;
                        }
                    }
                    int length = header.flip().getInt();
                    if (segment != null) {
                        segment.ensure(length);
                        if (!inPlace) {
                            segment.get(raster, 0, length); // into the heap, as a filter worker does
                            segment.put(raster, 0, length);
                        }
                        ack.clear();
                        writeFully(channel, ack);
                    } else {
                        readFully(channel, ByteBuffer.wrap(raster, 0, length));
                        writeFully(channel, ByteBuffer.wrap(raster, 0, length));
                    }
                }
            }
        }
    }

    private static void echoPipe(byte[] raster) throws IOException {
        InputStream stdin = new FileInputStream(FileDescriptor.in);
        OutputStream stdout = new FileOutputStream(FileDescriptor.out);
        DataInputStream in = new DataInputStream(stdin);
        while (true) {
            int length;
            try {
                length = in.readInt();
            } catch (java.io.EOFException e) {
                return;
            }
            in.readFully(raster, 0, length);
            stdout.write(raster, 0, length);
            stdout.flush();
        }
    }
}
