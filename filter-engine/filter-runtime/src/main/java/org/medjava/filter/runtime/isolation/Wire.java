package org.medjava.filter.runtime.isolation;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.ParamSpec;
import org.medjava.filter.Region;

/**
 * The control channel's vocabulary between a host and a filter worker: one byte names a message, its fields follow
 * in {@link DataOutput}'s encoding. Pixels never travel here (see {@link Segment}).
 */
public final class Wire {
    /** Host to worker: load a plugin (id, JAR, properties); answered with its filters or an error. */
    public static final byte LOAD = 'L';
    /** Host to worker: unload a plugin; answered {@link #OK}. */
    public static final byte UNLOAD = 'U';
    /** Host to worker: run a filter on the segment; answered {@link #OK} or {@link #ERROR}. */
    public static final byte APPLY = 'A';
    /**
     * Host to worker: stop the call running (a reason, and whether its plugin version is gone, in which case a call
     * that finishes anyway keeps its result); no answer of its own.
     */
    public static final byte CANCEL = 'C';
    /** Worker to host: done; followed by the worker's live thread count. */
    public static final byte OK = 'O';
    /** Worker to host: failed; followed by an error kind, a message and the live thread count. */
    public static final byte ERROR = 'E';

    /** What an {@link #ERROR} is. */
    public enum ErrorKind {
        /** The plugin did not load (its reason). */
        LOAD_FAILED,
        /** A parameter broke its rule. */
        INVALID_PARAMETER,
        /** The filter does not filter this kind of data. */
        UNSUPPORTED_DATA,
        /** A value of the raster is outside its range, or another argument is wrong. */
        ILLEGAL_ARGUMENT,
        /** The plugin's code threw. */
        PLUGIN_THREW,
        /** The call was cancelled and stopped. */
        CANCELLED,
        /** The worker's heap ran out. */
        OUT_OF_MEMORY,
        /** The worker could not start another thread (its task cap). */
        OUT_OF_THREADS,
        /** The worker does not have the filter (it failed there before). */
        UNAVAILABLE
    }

    private Wire() {
    }

    public static void writeMap(DataOutput out, Map<String, String> map) throws IOException {
        out.writeInt(map.size());
        for (Map.Entry<String, String> e : map.entrySet()) {
            out.writeUTF(e.getKey());
            out.writeUTF(e.getValue());
        }
    }

    public static Map<String, String> readMap(DataInput in) throws IOException {
        int n = in.readInt();
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            map.put(in.readUTF(), in.readUTF());
        }
        return map;
    }

    public static void writeRegion(DataOutput out, Region region) throws IOException {
        out.writeInt(region.x());
        out.writeInt(region.y());
        out.writeInt(region.width());
        out.writeInt(region.height());
    }

    public static Region readRegion(DataInput in) throws IOException {
        return Region.of(in.readInt(), in.readInt(), in.readInt(), in.readInt());
    }

    /** A long text (a descriptor's help may pass writeUTF's 64 KiB) as UTF-8 with an int length. */
    public static void writeText(DataOutput out, String text) throws IOException {
        byte[] utf8 = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    public static String readText(DataInput in) throws IOException {
        byte[] utf8 = new byte[in.readInt()];
        in.readFully(utf8);
        return new String(utf8, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** A descriptor as the worker read it from the plugin, so the host never runs plugin code to list it. */
    public static void writeDescriptor(DataOutput out, FilterDescriptor d) throws IOException {
        out.writeUTF(d.id());
        writeText(out, d.displayName());
        writeText(out, d.version());
        writeText(out, d.specSection());
        writeText(out, d.description());
        writeText(out, d.help());
        out.writeBoolean(d.parallelizable());
        out.writeInt(d.params().size());
        for (ParamSpec p : d.params()) {
            out.writeUTF(p.name());
            out.writeUTF(p.type().name());
            writeText(out, p.defaultValue());
            writeText(out, p.description());
            out.writeInt(p.min());
            out.writeInt(p.max());
            out.writeBoolean(p.oddOnly());
            out.writeInt(p.choices().size());
            for (String choice : p.choices()) {
                writeText(out, choice);
            }
            writeText(out, p.label());
            writeText(out, p.help());
        }
    }

    /** @throws IOException also for a descriptor the API's own rules refuse (the message says why) */
    public static FilterDescriptor readDescriptor(DataInput in) throws IOException {
        FilterDescriptor.Builder b = FilterDescriptor.builder(in.readUTF());
        b.displayName(readText(in)).version(readText(in)).specSection(readText(in)).description(readText(in))
                .help(readText(in)).parallelizable(in.readBoolean());
        int n = in.readInt();
        try {
            for (int i = 0; i < n; i++) {
                String name = in.readUTF();
                ParamSpec.Type type = ParamSpec.Type.valueOf(in.readUTF());
                String defaultValue = readText(in);
                String description = readText(in);
                int min = in.readInt();
                int max = in.readInt();
                boolean odd = in.readBoolean();
                List<String> choices = new ArrayList<>();
                for (int c = in.readInt(); c > 0; c--) {
                    choices.add(readText(in));
                }
                String label = readText(in);
                String help = readText(in);
                ParamSpec spec = switch (type) {
                    case INT -> odd ? ParamSpec.oddInteger(name, Integer.parseInt(defaultValue), min, max, description)
                            : ParamSpec.integer(name, Integer.parseInt(defaultValue), min, max, description);
                    case EXTENT -> ParamSpec.extent(name, defaultValue, min, max, description);
                    case CHOICE -> ParamSpec.choice(name, defaultValue, choices, description);
                    case BOOLEAN -> ParamSpec.bool(name, Boolean.parseBoolean(defaultValue), description);
                };
                b.param(spec.withHelp(label, help));
            }
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new IOException("a filter descriptor the API refuses: " + e.getMessage(), e);
        }
    }
}
