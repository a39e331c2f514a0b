package org.medjava.filter.runtime;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import org.medjava.filter.runtime.isolation.ChannelStreams;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.InvalidParameterException;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.UnsupportedDataException;
import org.medjava.filter.runtime.isolation.Segment;
import org.medjava.filter.runtime.isolation.Wire;

/**
 * A filter worker process: an ordinary in-process {@link FilterRegistry} (no host code, no credentials, an empty
 * environment) that loads the plugins its host names and runs one filter call at a time on the host's
 * {@link Segment}, told what to do over a Unix domain socket ({@link Wire}). Started and confined by the host
 * ({@link FilterWorkers}); it ends when the host closes the socket, and halts so that no plugin thread keeps it.
 */
public final class FilterWorkerMain {
    /** Pixel formats of an {@link Wire#APPLY}. */
    static final byte RGB = 0;
    static final byte GRAY16 = 1;

    private final FilterRegistry registry = FilterRegistry.forWorker();
    private final DataInputStream in;
    private final DataOutputStream out;
    private final ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "filter-worker-call");
        t.setDaemon(true);
        return t;
    });
    private Segment segment;
    private volatile CallControl running;
    /** The last call's source and result arrays, kept for the next call of the same size (see {@link #buffers}). */
    private final byte[][] rgb = new byte[2][];
    private final short[][] words = new short[2][];

    private FilterWorkerMain(DataInputStream in, DataOutputStream out) {
        this.in = in;
        this.out = out;
    }

    public static void main(String[] args) {
        int status = 0;
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(Path.of(args[0])));
            new FilterWorkerMain(new DataInputStream(new BufferedInputStream(ChannelStreams.in(channel))),
                    new DataOutputStream(new BufferedOutputStream(ChannelStreams.out(channel)))).serve();
        } catch (EOFException e) {
            // the host closed the channel: done
        } catch (Throwable t) {
            System.err.println("filter worker: " + PluginCalls.reason(t));
            status = 1;
        }
        Runtime.getRuntime().halt(status);
    }

    private void serve() throws IOException {
        while (true) {
            byte op = in.readByte();
            switch (op) {
                case Wire.LOAD -> load(in.readUTF(), Path.of(in.readUTF()), Wire.readMap(in));
                case Wire.UNLOAD -> unload(in.readUTF());
                case Wire.APPLY -> {
                    Request request = Request.read(in);
                    CallControl control = new CallControl(null);
                    running = control;
                    runner.execute(() -> apply(request, control));
                }
                case Wire.CANCEL -> {
                    String reason = in.readUTF();
                    boolean versionGone = in.readBoolean();
                    CallControl control = running;
                    if (control != null) {
                        if (versionGone) {
                            control.versionGone(); // as in the host: a call that finishes anyway keeps its result
                        }
                        control.cancel(reason);
                    }
                }
                default -> throw new IOException("unknown message " + op + " from the host");
            }
        }
    }

    private void load(String pluginId, Path jar, Map<String, String> properties) throws IOException {
        try {
            registry.load(pluginId, jar, properties);
            var filters = registry.filters().stream().filter(f -> f.pluginId().equals(pluginId)).toList();
            synchronized (out) {
                out.writeByte(Wire.OK);
                out.writeInt(filters.size());
                for (FilterInfo filter : filters) {
                    Wire.writeDescriptor(out, filter.descriptor());
                    out.writeBoolean(registry.supportsGray16(filter.id()));
                }
                out.writeInt(threads());
                out.flush();
            }
        } catch (RegistryException e) {
            error(Wire.ErrorKind.LOAD_FAILED, e.getMessage());
        }
    }

    private void unload(String pluginId) throws IOException {
        try {
            registry.remove(pluginId);
        } catch (RegistryException ignored) {
            // not loaded here (it failed): nothing to unload
        }
        synchronized (out) {
            out.writeByte(Wire.OK);
            out.writeInt(threads());
            out.flush();
        }
    }

    private void apply(Request r, CallControl control) {
        try {
            segment = r.segment(segment);
            int pixels = r.width * r.height;
            int rowStart = r.region.y() * r.width;
            int rows = r.region.height() * r.width;
            if (r.format == RGB) {
                buffers(rgb, pixels * 3, byte[]::new, a -> a.length);
                segment.get(rgb[0], 0, rgb[0].length);
                Raster result = registry.apply(r.filterId, new Raster(r.width, r.height, rgb[0]),
                        new Raster(r.width, r.height, rgb[1]), r.region, r.params, r.implementation, control);
                segment.put(result.rgb(), rowStart * 3, rows * 3);
            } else {
                buffers(words, pixels, short[]::new, a -> a.length);
                segment.get(words[0], 0, words[0].length);
                GrayRaster16 result = registry.apply(r.filterId, new GrayRaster16(r.width, r.height, r.bits,
                        r.signed, words[0]), new GrayRaster16(r.width, r.height, r.bits, r.signed, words[1]),
                        r.region, r.params, r.implementation, control);
                segment.put(result.words(), rowStart, rows);
            }
            running = null;
            synchronized (out) {
                out.writeByte(Wire.OK);
                out.writeInt(threads());
                out.flush();
            }
        } catch (Throwable t) {
            running = null;
            try {
                reportFailure(t);
            } catch (IOException | RuntimeException e) {
                Runtime.getRuntime().halt(2); // the host is gone or the channel broken: nothing to answer
            }
        }
    }

    /**
     * A source and a result array of {@code length}: the last call's when it had that size, else new ones (the old
     * pair let go first, so a worker never holds more than one call's). Two new rasters per call made the worker's
     * small serial heap collect three times per 4096² call, a full collection among them (FilterWorkerBenchmark:
     * half the call's time).
     */
    private static <A> void buffers(A[] pair, int length, java.util.function.IntFunction<A> make,
                                   java.util.function.ToIntFunction<A> lengthOf) {
        if (pair[0] != null && lengthOf.applyAsInt(pair[0]) == length) {
            return;
        }
        pair[0] = null;
        pair[1] = null;
        pair[0] = make.apply(length);
        pair[1] = make.apply(length);
    }

    private void reportFailure(Throwable t) throws IOException {
        if (t instanceof InvalidParameterException) {
            error(Wire.ErrorKind.INVALID_PARAMETER, t.getMessage());
        } else if (t instanceof UnsupportedDataException) {
            error(Wire.ErrorKind.UNSUPPORTED_DATA, t.getMessage());
        } else if (t instanceof RegistryException.DeadlineExceededException
                || t instanceof RegistryException.CallCancelledException) {
            error(Wire.ErrorKind.CANCELLED, t.getMessage());
        } else if (t instanceof RegistryException.FilterFailedException && t.getCause() != null) {
            Throwable cause = t.getCause();
            error(outOfWhat(cause), PluginCalls.reason(cause));
        } else if (t instanceof RegistryException) {
            error(Wire.ErrorKind.UNAVAILABLE, t.getMessage());
        } else if (t instanceof OutOfMemoryError) {
            error(outOfWhat(t), PluginCalls.reason(t));
        } else if (t instanceof IllegalArgumentException) {
            error(Wire.ErrorKind.ILLEGAL_ARGUMENT, t.getMessage());
        } else {
            error(Wire.ErrorKind.PLUGIN_THREW, PluginCalls.reason(t));
        }
    }

    /** What ran out: threads ("unable to create native thread") or memory; else the plugin threw. */
    private static Wire.ErrorKind outOfWhat(Throwable t) {
        if (t instanceof OutOfMemoryError) {
            String message = String.valueOf(t.getMessage());
            return message.contains("native thread") ? Wire.ErrorKind.OUT_OF_THREADS : Wire.ErrorKind.OUT_OF_MEMORY;
        }
        return Wire.ErrorKind.PLUGIN_THREW;
    }

    private void error(Wire.ErrorKind kind, String message) throws IOException {
        synchronized (out) {
            out.writeByte(Wire.ERROR);
            out.writeUTF(kind.name());
            Wire.writeText(out, message == null ? kind.name() : message);
            out.writeInt(threads());
            out.flush();
        }
    }

    private static int threads() {
        return ManagementFactory.getThreadMXBean().getThreadCount();
    }

    /** One {@link Wire#APPLY}: which filter, the raster's shape in the segment, the clipped region, parameters. */
    private record Request(String filterId, byte format, int width, int height, int bits, boolean signed,
                           Region region, Map<String, String> params, Implementation implementation, Path file,
                           long bytes) {
        static Request read(DataInputStream in) throws IOException {
            return new Request(in.readUTF(), in.readByte(), in.readInt(), in.readInt(), in.readInt(),
                    in.readBoolean(), Wire.readRegion(in), Wire.readMap(in), Implementation.parse(in.readUTF()),
                    Path.of(in.readUTF()), in.readLong());
        }

        Segment segment(Segment current) throws IOException {
            Segment s = current != null && current.file().equals(file) ? current : Segment.open(file);
            s.ensure(bytes);
            return s;
        }
    }
}
