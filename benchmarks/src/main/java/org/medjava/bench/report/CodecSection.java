package org.medjava.bench.report;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.medjava.bench.CodecBenchmark.Codec;
import org.medjava.bench.codec.CodecStep;

/**
 * Issue 34's codec target, from {@code raw/codec-jmh.json} and {@code raw/codec-sizes.csv}: lossless encode + decode
 * of a 512² 16-bit CT frame by HTJ2K at least 5× faster than the store's JPEG 2000 lossless (JJ2000, its path when
 * the issue was filed, and OpenJPEG, its path since), and a compressed size within 10% of JPEG 2000's. Medians of
 * JMH's iterations with 95% bootstrap intervals; ✓/✗ only where the interval excludes the target.
 */
final class CodecSection {
    /** HTJ2K's encode + decode at least this many times faster than JPEG 2000's. */
    static final double SPEED_TARGET = 5.0;
    /** HTJ2K's size at most this many times JPEG 2000's. */
    static final double SIZE_TARGET = 1.10;

    private CodecSection() {
    }

    static Optional<Section> build(Path raw, Path charts, Map<String, String> env, boolean smoke) throws IOException {
        Path json = raw.resolve(CodecStep.JSON);
        if (!Files.isRegularFile(json)) {
            return Optional.empty();
        }
        Map<Codec, double[]> samples = samples(json);
        Map<Codec, Long> sizes = new LinkedHashMap<>();
        long uncompressed = 0;
        for (Map<String, String> r : Csv.read(raw.resolve(CodecStep.SIZES))) {
            Codec c = Codec.of(r.get("codec"));
            if (Boolean.parseBoolean(r.get("lossless"))) {
                sizes.put(c, Long.parseLong(r.get("bytes")));
            }
            uncompressed = Long.parseLong(r.get("uncompressed_bytes"));
        }
        Table times = new Table("HTJ2K against JPEG 2000: lossless encode + decode of a 512² 16-bit CT frame",
                List.of("codec", "median ms [95%]", "÷ HTJ2K [95%]", "target ≥ " + fmt(SPEED_TARGET) + "×", "bytes",
                        "÷ HTJ2K's size", "target HTJ2K ≤ " + fmt(SIZE_TARGET) + "×"));
        double[] htj2k = samples.getOrDefault(Codec.HTJ2K_OPENJPH, new double[0]);
        for (Codec c : Codec.values()) {
            double[] s = samples.getOrDefault(c, new double[0]);
            Bootstrap.Interval median = Bootstrap.median(s, "codec " + c.id());
            boolean other = c != Codec.HTJ2K_OPENJPH;
            Bootstrap.Interval ratio = other ? Bootstrap.ratio(s, htj2k, "codec ratio " + c.id()) : null;
            Long bytes = sizes.get(c);
            Long htj2kBytes = sizes.get(Codec.HTJ2K_OPENJPH);
            String sizeVerdict = "";
            String sizeRatio = "";
            if (other && bytes != null && htj2kBytes != null) {
                double r = (double) htj2kBytes / bytes;
                sizeRatio = String.format(Locale.ROOT, "%.3f", (double) bytes / htj2kBytes);
                sizeVerdict = smoke ? "" : (r <= SIZE_TARGET ? "✓ " : "✗ ") + String.format(Locale.ROOT, "%.3f", r);
            }
            times.row(List.of(c.id(), interval(median), ratio == null ? "" : interval(ratio),
                    ratio == null || smoke ? "" : Bootstrap.atLeast(ratio, SPEED_TARGET).mark(),
                    bytes == null ? "changed samples" : Long.toString(bytes), sizeRatio, sizeVerdict));
        }
        times.note(uncompressed + " bytes uncompressed; each codec's output is checked to decode to every sample.");
        List<String> paragraphs = List.of("The TestImages CT phantom (HU + 1024, unsigned 16-bit), one thread, as the "
                + "store codes it: htj2k-openjph through image-codec's OpenJPH bridge (reversible 5-3, RPCL), "
                + "j2k-openjpeg through its OpenJPEG bridge (the store's JPEG 2000 path since issue 34), j2k-jj2000 "
                + "through jai-imageio (the store's path when issue 34 was filed, and its fallback). JMH "
                + "(org.medjava.bench.CodecBenchmark.encodeAndDecode); the interval of a ratio resamples both cells.");
        return Optional.of(new Section("codecs", "JPEG 2000 and HTJ2K codecs (issue 34)", paragraphs,
                List.of(times), List.of()));
    }

    /** Each codec's iteration times (ms) over every fork. */
    private static Map<Codec, double[]> samples(Path json) throws IOException {
        Map<Codec, double[]> out = new LinkedHashMap<>();
        JsonElement root;
        try (Reader in = Files.newBufferedReader(json)) {
            root = JsonParser.parseReader(in);
        }
        if (!root.isJsonArray()) {
            throw new IOException(json + " is not a JMH JSON result (no array)");
        }
        for (JsonElement e : root.getAsJsonArray()) {
            JsonObject r = e.getAsJsonObject();
            Codec c = Codec.of(r.getAsJsonObject("params").get("codec").getAsString());
            List<Double> values = new ArrayList<>();
            for (JsonElement fork : r.getAsJsonObject("primaryMetric").getAsJsonArray("rawData")) {
                for (JsonElement v : (JsonArray) fork) {
                    values.add(v.getAsDouble());
                }
            }
            out.put(c, values.stream().mapToDouble(Double::doubleValue).toArray());
        }
        return out;
    }

    private static String interval(Bootstrap.Interval i) {
        return i.isEmpty() ? ""
                : String.format(Locale.ROOT, "%s [%s–%s]", fmt(i.estimate()), fmt(i.lo()), fmt(i.hi()));
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
    }
}
