package org.medjava.testdata;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.medjava.codec.ImageCodec;
import org.medjava.filter.Filter;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.testkit.GoldenCase;
import org.medjava.filter.testkit.Gray16GoldenCase;
import org.medjava.filter.testkit.ImageGenerators;
import org.medjava.filter.testkit.ImageGenerators.Kind;
import org.medjava.filter.testkit.RasterDiff;
import org.medjava.filter.testkit.TestData;

/**
 * Regenerates {@code testdata/} on purpose ({@code ./medjava golden regenerate}). The Java ports compute every
 * expected output (all three Java implementations must agree), the independently written C ports must then
 * reproduce every one byte for byte with both C implementations; only then are cases.csv, cases-gray16.csv
 * ({@link Gray16Goldens}), inputs/, expected/ and SHA256SUMS replaced. Otherwise nothing in testdata/ changes.
 */
public final class RegenerateGolden {
    private final Map<String, Raster> inputs = new LinkedHashMap<>();
    private final List<GoldenCase> cases = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        Path testdata = TestData.goldenDir();
        RegenerateGolden g = new RegenerateGolden();
        g.defineInputs();
        g.defineCases();
        Gray16Goldens grey = new Gray16Goldens();
        grey.define();
        Path staging = Files.createTempDirectory("golden-staging-");
        int written = g.writeStaging(staging);
        written += grey.writeStaging(staging, Ports.javaFilters());
        boolean agree = cAgrees(staging, "cases.csv", g.cases.size());
        agree &= cAgrees(staging, Gray16GoldenCase.FILE, grey.cases.size());
        if (!agree) {
            System.err.println("C and Java disagree; testdata/ left unchanged; staging in " + staging);
            System.exit(1);
        }
        g.install(staging, testdata);
        System.out.println("regenerated " + g.cases.size() + " golden cases and " + grey.cases.size()
                + " grey golden cases (" + written + " files); Java and C agree");
    }

    /** Whether both C implementations reproduce every case of one cases file of the staging directory. */
    private static boolean cAgrees(Path staging, String casesFile, int cases) throws Exception {
        Ports.CResult c = Ports.runCGolden(staging.resolve(casesFile), staging, staging.resolve("c-diffs"));
        System.out.println(casesFile + ": " + c.output().lines().filter(l -> l.contains("FAIL") || l.contains("passed"))
                .limit(40).reduce("", (a, b) -> a + b + "\n"));
        return c.exitCode() == 0 && c.failed() == 0 && c.passed() == 2 * cases;
    }

    // ------------------------------------------------------------------ what is covered

    private void defineInputs() throws IOException {
        input("noise-1x1", ImageGenerators.generate(Kind.NOISE, 1, 1, 1));
        input("noise-2x5", ImageGenerators.generate(Kind.NOISE, 2, 5, 2));
        input("noise-5x2", ImageGenerators.generate(Kind.NOISE, 5, 2, 3));
        input("noise-3x3", ImageGenerators.generate(Kind.NOISE, 3, 3, 4));
        input("noise-17x13", ImageGenerators.generate(Kind.NOISE, 17, 13, 5));
        input("posterized-17x13", ImageGenerators.generate(Kind.POSTERIZED, 17, 13, 6));
        input("mixed-33x21", ImageGenerators.generate(Kind.MIXED, 33, 21, 7));
        input("gradient-64x48", ImageGenerators.generate(Kind.GRADIENT, 64, 48, 8));
        input("frame-40x30", ImageGenerators.generate(Kind.BRIGHT_FRAME, 40, 30, 9));
        input("grey-31x29", ImageGenerators.generate(Kind.GREY_NOISE, 31, 29, 10));
        input("extremes-24x24", ImageGenerators.generate(Kind.EXTREMES, 24, 24, 11));
        input("flat-7x7", ImageGenerators.generate(Kind.FLAT, 7, 7, 12));
        input("black-6x4", new Raster(6, 4));
        input("mixed-256x256", ImageGenerators.generate(Kind.MIXED, 256, 256, 13));
        input("posterized-256x256", ImageGenerators.generate(Kind.POSTERIZED, 256, 256, 14));
        // a real (public, de-identified) CT slice, as the store will serve them
        input("ct-128x128", ImageCodec.read(TestData.repositoryRoot().resolve("testdata/sources/ct-small.gif")));
    }

    private void defineCases() {
        // sizes, 1x1 to 256x256, with defaults
        for (String f : List.of("blur", "sharpen", "despeckle", "edge-detect", "emboss", "oil-paint", "pixelize",
                "spread")) {
            for (String in : List.of("noise-1x1", "noise-2x5", "noise-5x2", "noise-3x3", "noise-17x13", "mixed-256x256",
                    "ct-128x128")) {
                add(f + "-" + in, f, "", null, in);
            }
            add(f + "-region-inside", f, "", Region.of(3, 2, 10, 8), "mixed-33x21");
            add(f + "-region-outside", f, "", Region.of(20, -4, 30, 12), "mixed-33x21");
            add(f + "-region-1wide", f, "", Region.of(5, 1, 1, 9), "noise-17x13");
            add(f + "-region-2high", f, "", Region.of(2, 6, 12, 2), "noise-17x13");
            add(f + "-region-3x3", f, "", Region.of(7, 4, 3, 3), "noise-17x13");
            add(f + "-posterized", f, "", null, "posterized-17x13");
            add(f + "-extremes", f, "", null, "extremes-24x24");
            add(f + "-flat", f, "", null, "flat-7x7");
            add(f + "-black", f, "", null, "black-6x4");
        }
        // 2.1 blur: identity, larger masks (counts shrink at the border), partial regions
        add("blur-n1-identity", "blur", "n=1", null, "noise-17x13");
        add("blur-n5", "blur", "n=5", null, "mixed-33x21");
        add("blur-n7-region", "blur", "n=7", Region.of(4, 3, 20, 15), "mixed-33x21");
        add("blur-n9", "blur", "n=9", null, "gradient-64x48");
        add("blur-n31-larger-than-image", "blur", "n=31", null, "noise-17x13");
        // 2.2 sharpen: p range ends, grey pixels (no hue), region smaller than 3
        add("sharpen-p0", "sharpen", "p=0", null, "mixed-33x21");
        add("sharpen-p50", "sharpen", "p=50", null, "mixed-33x21");
        add("sharpen-p99", "sharpen", "p=99", null, "mixed-33x21");
        add("sharpen-grey", "sharpen", "", null, "grey-31x29");
        add("sharpen-gradient", "sharpen", "p=90", null, "gradient-64x48");
        add("sharpen-region-2wide-noop", "sharpen", "", Region.of(3, 3, 2, 9), "noise-17x13");
        // 2.3 despeckle: even counts at the border (4, 6; 12, 16, 20 for n=5), per-channel medians
        add("despeckle-n5", "despeckle", "n=5", null, "mixed-33x21");
        add("despeckle-n7-region", "despeckle", "n=7", Region.of(2, 2, 25, 15), "mixed-33x21");
        add("despeckle-n5-posterized-256", "despeckle", "n=5", null, "posterized-256x256");
        add("despeckle-grey", "despeckle", "", null, "grey-31x29");
        // 2.4 edge detect: the bright-frame quirk, the black-frame variant, maxv = 0
        add("edge-detect-bright-frame", "edge-detect", "", null, "frame-40x30");
        add("edge-detect-frame-black", "edge-detect", "frame=black", null, "frame-40x30");
        add("edge-detect-frame-black-mixed", "edge-detect", "frame=black", null, "mixed-33x21");
        add("edge-detect-frame-black-region", "edge-detect", "frame=black", Region.of(3, 2, 10, 8), "gradient-64x48");
        add("edge-detect-gradient", "edge-detect", "", null, "gradient-64x48");
        // 2.5 emboss: dead zone on a gentle gradient, the floor variant
        add("emboss-gradient-dead-zone", "emboss", "", null, "gradient-64x48");
        add("emboss-floor", "emboss", "rounding=floor", null, "gradient-64x48");
        add("emboss-floor-mixed", "emboss", "rounding=floor", null, "mixed-33x21");
        add("emboss-grey", "emboss", "", null, "grey-31x29");
        // 2.6 oil paint: xv's 4x4 offset window (n=3 -> 4), even n, larger n, the centred variant, repeats
        add("oil-paint-n4", "oil-paint", "n=4", null, "posterized-17x13");
        add("oil-paint-n5", "oil-paint", "n=5", null, "posterized-17x13");
        add("oil-paint-n1", "oil-paint", "n=1", null, "posterized-17x13");
        add("oil-paint-n7-region", "oil-paint", "n=7", Region.of(2, 1, 28, 17), "mixed-33x21");
        add("oil-paint-centred", "oil-paint", "window=centred", null, "posterized-17x13");
        add("oil-paint-centred-n5", "oil-paint", "n=5 window=centred", null, "mixed-33x21");
        add("oil-paint-posterized-256", "oil-paint", "", null, "posterized-256x256");
        // 2.7 pixelize: centred grid with partial blocks on both sides, AxB, left overhang >= 2 (intended mean)
        add("pixelize-3x2", "pixelize", "block=3x2", null, "noise-17x13");
        add("pixelize-1", "pixelize", "block=1", null, "noise-17x13");
        add("pixelize-5x7-region-left-overhang", "pixelize", "block=5x7", Region.of(1, 1, 11, 10), "mixed-33x21");
        add("pixelize-8-gradient", "pixelize", "block=8", null, "gradient-64x48");
        add("pixelize-40-larger-than-image", "pixelize", "block=40", null, "noise-17x13");
        add("pixelize-7x3-256", "pixelize", "block=7x3", null, "mixed-256x256");
        // 2.8 spread: seeds, diamond and box modes, zero ranges still draw two numbers, no-ops
        add("spread-seed12345", "spread", "seed=12345", null, "noise-17x13");
        add("spread-seed0-is-seed1", "spread", "seed=0", null, "noise-17x13");
        add("spread-d0-noop", "spread", "distance=0", null, "noise-17x13");
        add("spread-0x0-noop", "spread", "distance=0x0", null, "noise-17x13");
        add("spread-d1", "spread", "distance=1", null, "mixed-33x21");
        add("spread-box-3x1", "spread", "distance=3x1", null, "mixed-33x21");
        add("spread-box-0x4", "spread", "distance=0x4 seed=7", null, "mixed-33x21");
        add("spread-d100", "spread", "distance=100 seed=99", null, "noise-17x13");
        add("spread-d9-region", "spread", "distance=9 seed=3", Region.of(4, 2, 20, 14), "mixed-33x21");
        add("spread-256", "spread", "distance=12x7 seed=2026", null, "mixed-256x256");
    }

    private void input(String name, Raster raster) {
        inputs.put(name, raster);
    }

    private void add(String id, String filter, String params, Region region, String input) {
        if (!inputs.containsKey(input)) {
            throw new IllegalArgumentException("no input " + input);
        }
        Map<String, String> p = new LinkedHashMap<>();
        for (String pair : params.trim().split("\\s+")) {
            if (!pair.isEmpty()) {
                p.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
            }
        }
        cases.add(new GoldenCase(id, filter, p, region, "inputs/" + input + ".ppm", "expected/" + id + ".ppm"));
    }

    // ------------------------------------------------------------------ writing

    private int writeStaging(Path staging) throws IOException {
        Files.createDirectories(staging.resolve("inputs"));
        Files.createDirectories(staging.resolve("expected"));
        for (Map.Entry<String, Raster> e : inputs.entrySet()) {
            ImageCodec.write(e.getValue(), staging.resolve("inputs/" + e.getKey() + ".ppm"));
        }
        Map<String, Filter> filters = Ports.javaFilters();
        for (GoldenCase c : cases) {
            Filter filter = filters.get(c.filter());
            Raster in = inputs.get(c.input().substring("inputs/".length(), c.input().length() - 4));
            Raster expected = Filter.run(filter, in, c.region(), filter.descriptor().params(c.params()),
                    Implementation.STRAIGHTFORWARD);
            for (Implementation impl : List.of(Implementation.OPTIMIZED, Implementation.PARALLEL)) {
                Raster other = Filter.run(filter, in, c.region(), filter.descriptor().params(c.params()), impl);
                String diff = RasterDiff.describe(expected, other, staging, c.id() + "-" + impl.id());
                if (diff != null) {
                    throw new IllegalStateException("Java ports disagree: " + diff);
                }
            }
            ImageCodec.write(expected, staging.resolve(c.expected()));
        }
        GoldenCase.write(staging.resolve("cases.csv"), cases, """
                MedJava golden cases: columns and formats in docs/filters.md.
                Generated on purpose by ./medjava golden regenerate (RegenerateGolden): the Java ports wrote the
                expected outputs and the independently written C ports reproduced every one byte for byte.""");
        return inputs.size() + cases.size();
    }

    private void install(Path staging, Path testdata) throws IOException {
        for (String sub : List.of("inputs", "expected")) {
            Path target = testdata.resolve(sub);
            if (Files.isDirectory(target)) {
                try (Stream<Path> old = Files.list(target)) {
                    for (Path p : old.toList()) {
                        Files.delete(p);
                    }
                }
            }
            Files.createDirectories(target);
            try (Stream<Path> files = Files.list(staging.resolve(sub))) {
                for (Path p : files.filter(f -> f.toString().endsWith(".ppm") || f.toString().endsWith(".pgm"))
                        .toList()) {
                    Files.copy(p, target.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        Files.copy(staging.resolve("cases.csv"), testdata.resolve("cases.csv"), StandardCopyOption.REPLACE_EXISTING);
        Files.copy(staging.resolve(Gray16GoldenCase.FILE), testdata.resolve(Gray16GoldenCase.FILE),
                StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(testdata.resolve("SHA256SUMS"), checksums(testdata));
    }

    /**
     * {@code sha256  path} lines (sha256sum's format) for cases.csv, cases-gray16.csv and every input and expected
     * file.
     */
    static String checksums(Path testdata) throws IOException {
        Map<String, String> sums = new TreeMap<>();
        sums.put("cases.csv", sha256(testdata.resolve("cases.csv")));
        if (Files.exists(testdata.resolve(Gray16GoldenCase.FILE))) {
            sums.put(Gray16GoldenCase.FILE, sha256(testdata.resolve(Gray16GoldenCase.FILE)));
        }
        for (String sub : List.of("inputs", "expected")) {
            try (Stream<Path> files = Files.list(testdata.resolve(sub))) {
                for (Path p : files.toList()) {
                    sums.put(sub + "/" + p.getFileName(), sha256(p));
                }
            }
        }
        StringBuilder sb = new StringBuilder();
        sums.forEach((path, sum) -> sb.append(sum).append("  ").append(path).append('\n'));
        return sb.toString();
    }

    static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(in.readAllBytes()));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
