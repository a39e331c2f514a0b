package org.medjava.filter.runtime.isolation;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The host's handle on one filter worker process: started confined ({@link Sandbox}), joined over a Unix domain
 * socket in its own directory, sharing a {@link Segment} there. One request is outstanding at a time; a reader
 * thread completes it, and when the worker ends it fails the request with why it ended (exit status, the kernel's
 * OOM killer at its memory cap).
 */
public final class WorkerProcess implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(WorkerProcess.class.getName());
    private static final long START_TIMEOUT_MS = 30_000;

    /** Reads the body of an {@link Wire#OK} answer. */
    @FunctionalInterface
    public interface Body<T> {
        T read(DataInputStream in) throws IOException;
    }

    /** Writes a request. */
    @FunctionalInterface
    public interface Message {
        void write(DataOutputStream out) throws IOException;
    }

    /** An answer: {@code value} when ok, else the worker's error kind and message; the worker's thread count. */
    public record Answer<T>(T value, Wire.ErrorKind error, String message, int threads) {
        public boolean ok() {
            return error == null;
        }
    }

    /** The worker ended (or its channel broke) before it answered; the message says how. */
    public static final class Ended extends IOException {
        public Ended(String message) {
            super(message);
        }
    }

    private final String name;
    private final Path dir;
    private final Process process;
    private final SocketChannel channel;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final Segment segment;
    private final Optional<Cgroups.Group> group;
    private final WorkerOptions options;
    private final Path log;
    /** What this worker has loaded: plugin id to the host's key of that version. Used by one caller at a time. */
    private final Map<String, String> loaded = new HashMap<>();
    private volatile Pending<?> pending;
    private volatile boolean killed;

    private record Pending<T>(Body<T> body, CompletableFuture<Answer<T>> future) {
    }

    private WorkerProcess(String name, Path dir, Process process, SocketChannel channel, Segment segment,
                          Optional<Cgroups.Group> group, WorkerOptions options, Path log) {
        this.name = name;
        this.dir = dir;
        this.process = process;
        this.channel = channel;
        this.in = new DataInputStream(new BufferedInputStream(ChannelStreams.in(channel), 1 << 16));
        this.out = new DataOutputStream(new BufferedOutputStream(ChannelStreams.out(channel), 1 << 16));
        this.segment = segment;
        this.group = group;
        this.options = options;
        this.log = log;
        Thread reader = new Thread(this::readAnswers, "filter-" + name + "-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts a worker named {@code name} under {@code poolDir} and waits until it has connected.
     *
     * @param java      the {@code java} launcher
     * @param javaArgs  JVM options, class path and main class; the socket's path is appended
     * @param readOnly  what the worker reads besides the JDK and system libraries (its code, the plugins)
     */
    public static WorkerProcess start(Sandbox sandbox, WorkerOptions options, Path poolDir, String name, Path java,
                                      List<String> javaArgs, List<Path> readOnly) throws IOException {
        Path dir = Files.createDirectories(poolDir.resolve(name));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Segment segment = Segment.create(dir.resolve("segment"));
        Path socket = dir.resolve("control.sock");
        Files.deleteIfExists(socket);
        Optional<Cgroups.Group> group = Optional.empty();
        Process process = null;
        Path log = poolDir.resolve(name + ".log");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-rw-rw-"));
            if (sandbox.dropsUser()) { // the worker's user writes the segment and nothing else here
                Files.setAttribute(segment.file(), "unix:uid", Sandbox.NOBODY);
                Files.setAttribute(segment.file(), "unix:gid", Sandbox.NOBODY);
                Files.setPosixFilePermissions(segment.file(), PosixFilePermissions.fromString("rw-------"));
            }
            group = sandbox.group(name, options);
            List<String> args = new ArrayList<>(javaArgs);
            args.add(socket.toString());
            ProcessBuilder builder = new ProcessBuilder(sandbox.command(java, args, readOnly, dir, group));
            builder.environment().clear(); // no credentials, no host configuration
            builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.directory(dir.toFile());
            process = builder.start();
            server.configureBlocking(false);
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MS);
            SocketChannel channel;
            while ((channel = server.accept()) == null) {
                if (!process.isAlive()) {
                    throw new IOException("filter worker " + name + " ended at start with status "
                            + process.exitValue() + ": " + tail(log));
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IOException("filter worker " + name + " did not connect within "
                            + START_TIMEOUT_MS / 1000 + " s: " + tail(log));
                }
                Thread.sleep(5);
            }
            channel.configureBlocking(true);
            Files.deleteIfExists(socket); // connected: nobody else may
            return new WorkerProcess(name, dir, process, channel, segment, group, options, log);
        } catch (IOException | RuntimeException e) {
            if (process != null) {
                destroy(process);
            }
            group.ifPresent(Cgroups.Group::delete);
            segment.close();
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            destroy(process);
            group.ifPresent(Cgroups.Group::delete);
            segment.close();
            throw new IOException("interrupted while filter worker " + name + " started", e);
        }
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public Segment segment() {
        return segment;
    }

    /** Plugin id to the version key this worker has loaded (the caller that holds the worker keeps it). */
    public Map<String, String> loaded() {
        return loaded;
    }

    public boolean isAlive() {
        return !killed && process.isAlive();
    }

    /**
     * Sends a request and returns its answer to come. The caller holds this worker: one request at a time.
     *
     * @throws Ended when the worker has ended or the channel is broken
     */
    public <T> CompletableFuture<Answer<T>> request(Message message, Body<T> okBody) throws Ended {
        Pending<T> next = new Pending<>(okBody, new CompletableFuture<>());
        pending = next;
        try {
            synchronized (out) {
                message.write(out);
                out.flush();
            }
        } catch (IOException e) {
            pending = null;
            throw new Ended(howItEnded());
        }
        return next.future;
    }

    /** A message with no answer of its own (a cancellation). */
    public void tell(Message message) {
        try {
            synchronized (out) {
                message.write(out);
                out.flush();
            }
        } catch (IOException e) {
            // ended: the pending request learns how
        }
    }

    private void readAnswers() {
        try {
            while (true) {
                byte kind = in.readByte();
                Pending<?> p = pending;
                if (p == null) {
                    throw new IOException("an answer nobody asked for");
                }
                pending = null;
                complete(p, kind);
            }
        } catch (IOException e) {
            Pending<?> p = pending;
            pending = null;
            String how = howItEnded();
            if (p != null) {
                p.future.completeExceptionally(new Ended(how));
            }
        }
    }

    private <T> void complete(Pending<T> p, byte kind) throws IOException {
        if (kind == Wire.OK) {
            T value = p.body.read(in);
            p.future.complete(new Answer<>(value, null, null, in.readInt()));
        } else if (kind == Wire.ERROR) {
            Wire.ErrorKind error = Wire.ErrorKind.valueOf(in.readUTF());
            String message = Wire.readText(in);
            p.future.complete(new Answer<>(null, error, message, in.readInt()));
        } else {
            throw new IOException("unknown answer " + kind);
        }
    }

    /** Why the worker is gone, in words: the kernel's OOM killer at its cap, a kill, or its exit status. */
    public String howItEnded() {
        try {
            process.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (group.isPresent() && group.get().oomKills() > 0) {
            return "was killed by the kernel at the worker's memory cap of " + (options.memoryCapBytes() >> 20)
                    + " MiB";
        }
        if (killed) {
            return "was stopped: its worker process was killed";
        }
        if (process.isAlive()) {
            return "broke the worker's control channel";
        }
        int status = process.exitValue();
        return status > 128 ? "ended the worker process by signal " + (status - 128)
                : "ended the worker process (exit status " + status + ")";
    }

    /** Whether the worker hit its task cap (a thread it could not start) since it started. */
    public boolean hitTaskCap() {
        return group.isPresent() && group.get().taskLimitHits() > 0;
    }

    /** SIGKILL to the worker and everything it started, then its files and control group go. */
    public void kill() {
        killed = true;
        destroy(process);
        close();
    }

    private static void destroy(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Ends the worker: closing its channel makes it halt; a worker that does not is killed. */
    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        try {
            if (!process.waitFor(2, TimeUnit.SECONDS)) {
                destroy(process);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            destroy(process);
        }
        try {
            segment.close();
        } catch (IOException ignored) {
            // its file goes below
        }
        for (int i = 0; i < 20 && group.isPresent(); i++) { // the kernel lets a group go once its tasks have
            group.get().delete();
            if (!Files.exists(group.get().procsFiles().get(0).getParent())) {
                break;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        try (var files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "leaving " + dir + ": " + e);
        }
    }

    /** The last lines the worker wrote (JVM errors at start), for a message. */
    public String logTail() {
        return tail(log);
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "(no output)";
        }
    }
}
