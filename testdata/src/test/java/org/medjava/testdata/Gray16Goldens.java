package org.medjava.testdata;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.filter.Filter;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Region;
import org.medjava.filter.testkit.Gray16GoldenCase;
import org.medjava.filter.testkit.GrayRasters;
import org.medjava.filter.testkit.GrayRasters.Kind;
import org.medjava.filter.testkit.PgmFiles;
import org.medjava.filter.testkit.TestData;

/**
 * The grey golden cases ({@code cases-gray16.csv}, docs/xv-filters-16bit.md): inputs of every kind at the ends of
 * the signed and unsigned 12- and 16-bit ranges (and 8, 10 and 1 bits), odd sizes, 1×1, regions, non-default
 * parameters, and two real DICOM slices (CT, signed; MR, unsigned). Part of {@link RegenerateGolden}: the Java ports
 * write the expected outputs, the C ports must reproduce them.
 */
final class Gray16Goldens {
    static final List<String> FILTERS = List.of("blur", "sharpen", "despeckle", "edge-detect", "emboss", "oil-paint",
            "pixelize", "spread");

    final Map<String, GrayRaster16> inputs = new LinkedHashMap<>();
    final List<Gray16GoldenCase> cases = new ArrayList<>();

    void define() throws IOException {
        defineInputs();
        defineCases();
    }

    private void defineInputs() throws IOException {
        long seed = 1600;
        input("g-noise-u16-1x1", GrayRasters.generate(Kind.NOISE, 1, 1, 16, false, seed++));
        input("g-noise-s16-1x1", GrayRasters.generate(Kind.EXTREMES, 1, 1, 16, true, seed++));
        input("g-noise-u16-2x5", GrayRasters.generate(Kind.NOISE, 2, 5, 16, false, seed++));
        input("g-noise-s12-5x2", GrayRasters.generate(Kind.NOISE, 5, 2, 12, true, seed++));
        input("g-noise-u16-3x3", GrayRasters.generate(Kind.NOISE, 3, 3, 16, false, seed++));
        for (String f : List.of("u16", "s16", "u12", "s12")) {
            int bits = Integer.parseInt(f.substring(1));
            boolean signed = f.charAt(0) == 's';
            input("g-noise-" + f + "-17x13", GrayRasters.generate(Kind.NOISE, 17, 13, bits, signed, seed++));
            input("g-extremes-" + f + "-24x24", GrayRasters.generate(Kind.EXTREMES, 24, 24, bits, signed, seed++));
        }
        input("g-posterized-s16-17x13", GrayRasters.generate(Kind.POSTERIZED, 17, 13, 16, true, seed++));
        input("g-posterized-u12-33x21", GrayRasters.generate(Kind.POSTERIZED, 33, 21, 12, false, seed++));
        input("g-gradient-u16-64x48", GrayRasters.generate(Kind.GRADIENT, 64, 48, 16, false, seed++));
        input("g-gradient-s12-64x48", GrayRasters.generate(Kind.GRADIENT, 64, 48, 12, true, seed++));
        input("g-frame-u12-40x30", GrayRasters.generate(Kind.BRIGHT_FRAME, 40, 30, 12, false, seed++));
        input("g-frame-s16-40x30", GrayRasters.generate(Kind.BRIGHT_FRAME, 40, 30, 16, true, seed++));
        input("g-dim-u16-31x29", GrayRasters.generate(Kind.DIM, 31, 29, 16, false, seed++));
        input("g-flat-s16-7x7", GrayRasters.generate(Kind.FLAT, 7, 7, 16, true, seed++));
        input("g-phantom-s12-33x21", GrayRasters.generate(Kind.PHANTOM, 33, 21, 12, true, seed++));
        input("g-phantom-u16-256x256", GrayRasters.generate(Kind.PHANTOM, 256, 256, 16, false, seed++));
        input("g-noise-u8-33x21", GrayRasters.generate(Kind.NOISE, 33, 21, 8, false, seed++));
        input("g-noise-u10-19x11", GrayRasters.generate(Kind.NOISE, 19, 11, 10, false, seed++));
        input("g-posterized-s1-9x7", GrayRasters.generate(Kind.POSTERIZED, 9, 7, 1, true, seed++));
        // real (public, de-identified) slices, as a DICOM decoder hands them over: stored values, no VOI window
        input("g-ct-small", dicom("testdata/samples/dicom/CT_small.dcm"));
        input("g-mr-small", dicom("testdata/samples/dicom/MR_small.dcm"));
    }

    private static GrayRaster16 dicom(String path) throws IOException {
        DicomImage image = DicomCodec.read(TestData.repositoryRoot().resolve(path));
        int[] values = image.storedValues();
        GrayRaster16 r = new GrayRaster16(image.width(), image.height(), image.bitsStored(), image.isSigned());
        for (int i = 0; i < values.length; i++) {
            r.words()[i] = (short) values[i];
        }
        r.requireValuesInRange();
        return r;
    }

    private void defineCases() {
        for (String f : FILTERS) {
            // sizes 1x1 to 256x256, every format, defaults
            for (String in : List.of("g-noise-u16-1x1", "g-noise-s16-1x1", "g-noise-u16-2x5", "g-noise-s12-5x2",
                    "g-noise-u16-3x3", "g-noise-u16-17x13", "g-noise-s16-17x13", "g-noise-u12-17x13",
                    "g-noise-s12-17x13", "g-extremes-u16-24x24", "g-extremes-s16-24x24", "g-extremes-u12-24x24",
                    "g-extremes-s12-24x24", "g-phantom-u16-256x256", "g-ct-small", "g-mr-small",
                    "g-noise-u8-33x21", "g-noise-u10-19x11", "g-posterized-s1-9x7", "g-flat-s16-7x7")) {
                add(f + "-" + in.substring(2), f, "", null, in);
            }
            add(f + "-g-region-inside", f, "", Region.of(3, 2, 10, 8), "g-phantom-s12-33x21");
            add(f + "-g-region-outside", f, "", Region.of(20, -4, 30, 12), "g-posterized-u12-33x21");
            add(f + "-g-region-1wide", f, "", Region.of(5, 1, 1, 9), "g-noise-s16-17x13");
            add(f + "-g-region-2high", f, "", Region.of(2, 6, 12, 2), "g-noise-u16-17x13");
            add(f + "-g-region-3x3", f, "", Region.of(7, 4, 3, 3), "g-extremes-s16-24x24");
            add(f + "-g-posterized", f, "", null, "g-posterized-s16-17x13");
        }
        // 2.1 blur: identity, larger masks, a mask larger than the image
        add("blur-g-n1-identity", "blur", "n=1", null, "g-noise-s12-17x13");
        add("blur-g-n5", "blur", "n=5", null, "g-gradient-s12-64x48");
        add("blur-g-n7-region", "blur", "n=7", Region.of(4, 3, 20, 15), "g-posterized-u12-33x21");
        add("blur-g-n31-larger-than-image", "blur", "n=31", null, "g-extremes-u16-24x24");
        // 2.2 sharpen: p range ends, the clamp to the format's range (D2)
        add("sharpen-g-p0", "sharpen", "p=0", null, "g-gradient-u16-64x48");
        add("sharpen-g-p50", "sharpen", "p=50", null, "g-phantom-s12-33x21");
        add("sharpen-g-p99", "sharpen", "p=99", null, "g-extremes-s16-24x24");
        add("sharpen-g-gradient", "sharpen", "p=90", null, "g-gradient-s12-64x48");
        // 2.3 despeckle: even counts (D3), the sliding histogram (n >= 5)
        add("despeckle-g-n5", "despeckle", "n=5", null, "g-noise-s16-17x13");
        add("despeckle-g-n7-region", "despeckle", "n=7", Region.of(2, 2, 25, 15), "g-posterized-u12-33x21");
        add("despeckle-g-n5-phantom-256", "despeckle", "n=5", null, "g-phantom-u16-256x256");
        add("despeckle-g-n9-ct", "despeckle", "n=9", null, "g-ct-small");
        // 2.4 edge detect: the bright-frame quirk, the black frame, a small maxv (D4, D5)
        add("edge-detect-g-bright-frame", "edge-detect", "", null, "g-frame-u12-40x30");
        add("edge-detect-g-bright-frame-signed", "edge-detect", "", null, "g-frame-s16-40x30");
        add("edge-detect-g-frame-black", "edge-detect", "frame=black", null, "g-frame-s16-40x30");
        add("edge-detect-g-frame-black-dim", "edge-detect", "frame=black", null, "g-dim-u16-31x29");
        add("edge-detect-g-frame-black-region", "edge-detect", "frame=black", Region.of(3, 2, 10, 8),
                "g-gradient-s12-64x48");
        add("edge-detect-g-frame-black-ct", "edge-detect", "frame=black", null, "g-ct-small");
        // 2.5 emboss: the mid-grey (D6), the dead zone on gentle gradients, the floor variant
        add("emboss-g-gradient-dead-zone", "emboss", "", null, "g-gradient-u16-64x48");
        add("emboss-g-gradient-signed", "emboss", "", null, "g-gradient-s12-64x48");
        add("emboss-g-floor", "emboss", "rounding=floor", null, "g-gradient-s12-64x48");
        add("emboss-g-floor-extremes", "emboss", "rounding=floor", null, "g-extremes-u16-24x24");
        // 2.6 oil paint: xv's window, even and larger n, the centred variant, ties (D7)
        add("oil-paint-g-n4", "oil-paint", "n=4", null, "g-posterized-s16-17x13");
        add("oil-paint-g-n1", "oil-paint", "n=1", null, "g-posterized-u12-33x21");
        add("oil-paint-g-n5", "oil-paint", "n=5", null, "g-posterized-s1-9x7");
        add("oil-paint-g-n7-region", "oil-paint", "n=7", Region.of(2, 1, 28, 17), "g-posterized-u12-33x21");
        add("oil-paint-g-centred-n5", "oil-paint", "n=5 window=centred", null, "g-extremes-s12-24x24");
        // 2.7 pixelize: partial blocks, AxB, left overhang >= 2, blocks larger than the image
        add("pixelize-g-3x2", "pixelize", "block=3x2", null, "g-noise-s16-17x13");
        add("pixelize-g-1", "pixelize", "block=1", null, "g-noise-u16-17x13");
        add("pixelize-g-5x7-region-left-overhang", "pixelize", "block=5x7", Region.of(1, 1, 11, 10),
                "g-phantom-s12-33x21");
        add("pixelize-g-40-larger-than-image", "pixelize", "block=40", null, "g-extremes-u16-24x24");
        add("pixelize-g-7x3-256", "pixelize", "block=7x3", null, "g-phantom-u16-256x256");
        // 2.8 spread: seeds, diamond and box modes, no-ops
        add("spread-g-seed12345", "spread", "seed=12345", null, "g-noise-s16-17x13");
        add("spread-g-d0-noop", "spread", "distance=0", null, "g-noise-u16-17x13");
        add("spread-g-box-3x1", "spread", "distance=3x1", null, "g-phantom-s12-33x21");
        add("spread-g-d9-region", "spread", "distance=9 seed=3", Region.of(4, 2, 20, 14), "g-phantom-s12-33x21");
        add("spread-g-256", "spread", "distance=12x7 seed=2026", null, "g-phantom-u16-256x256");
    }

    private void input(String name, GrayRaster16 raster) {
        inputs.put(name, raster);
    }

    private void add(String id, String filter, String params, Region region, String input) {
        GrayRaster16 in = inputs.get(input);
        if (in == null) {
            throw new IllegalArgumentException("no input " + input);
        }
        Map<String, String> p = new LinkedHashMap<>();
        for (String pair : params.trim().split("\\s+")) {
            if (!pair.isEmpty()) {
                p.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
            }
        }
        cases.add(new Gray16GoldenCase(id, filter, p, region, "inputs/" + input + ".pgm", "expected/" + id + ".pgm",
                in.bitsStored(), in.signed()));
    }

    /** Writes inputs, expected outputs (all three Java implementations agreeing) and cases-gray16.csv. */
    int writeStaging(Path staging, Map<String, Filter> filters) throws IOException {
        for (Map.Entry<String, GrayRaster16> e : inputs.entrySet()) {
            PgmFiles.write(e.getValue(), staging.resolve("inputs/" + e.getKey() + ".pgm"));
        }
        for (Gray16GoldenCase c : cases) {
            Filter filter = filters.get(c.filter());
            GrayRaster16 in = inputs.get(c.input().substring("inputs/".length(), c.input().length() - 4));
            GrayRaster16 expected = Filter.run(filter, in, c.region(), filter.descriptor().params(c.params()),
                    Implementation.STRAIGHTFORWARD);
            for (Implementation impl : List.of(Implementation.OPTIMIZED, Implementation.PARALLEL)) {
                GrayRaster16 other = Filter.run(filter, in, c.region(), filter.descriptor().params(c.params()), impl);
                String diff = GrayRasters.describe(expected, other, staging, c.id() + "-" + impl.id());
                if (diff != null) {
                    throw new IllegalStateException("Java ports disagree: " + diff);
                }
            }
            PgmFiles.write(expected, staging.resolve(c.expected()));
        }
        Gray16GoldenCase.write(staging.resolve(Gray16GoldenCase.FILE), cases, """
                MedJava grey golden cases (docs/xv-filters-16bit.md): columns and formats in docs/filters.md.
                Generated on purpose by ./medjava golden regenerate (RegenerateGolden): the Java ports wrote the
                expected outputs and the independently written C ports reproduced every one word for word.""");
        return inputs.size() + cases.size();
    }
}
