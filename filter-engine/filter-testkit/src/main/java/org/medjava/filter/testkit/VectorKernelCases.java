package org.medjava.filter.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.VectorSupport;

/**
 * The randomized check behind every plugin's Vector API test: a filter's vector and scalar kernels against its
 * straightforward port, in one JVM, byte for byte, on seeded random images ({@link TestRasters#random}) of sizes
 * around the vector length and random regions ({@link TestRasters#randomRegion}, clipped; empty ones skipped).
 * The plugin tests run with {@code --add-modules jdk.incubator.vector} (filter-plugins/pom.xml), so the vector path
 * is the one a filter takes by default; this class itself needs nothing of the Vector API.
 *
 * <pre>{@code
 * VectorKernelCases.of(77, 300, 90, 40).forEach(c -> {
 *     int n = 2 * c.rnd().nextInt(7) + 1;          // the filter's own parameters: drawn after the region
 *     c.assertKernelsAgree("n=" + n, dst -> BlurStraightforward.apply(c.src(), dst, c.region(), n),
 *             (dst, vector) -> BlurOptimized.apply(c.src(), dst, c.region(), n, false, vector));
 * });
 * }</pre>
 *
 * @param seed      of the one {@link SplittableRandom} that draws every case and the filter's parameters
 * @param cases     how many cases are drawn (those whose clipped region is empty are skipped)
 * @param maxWidth  the widest image (widths are 1..maxWidth)
 * @param maxHeight the highest image (heights are 1..maxHeight)
 * @param fewValued whether every third image is few-valued ({@link #fewValuedEveryThird()})
 */
public record VectorKernelCases(long seed, int cases, int maxWidth, int maxHeight, boolean fewValued) {

    /** A kernel writing into {@code dst} (a copy of the source), with its vector path on or off. */
    @FunctionalInterface
    public interface Kernel {
        void apply(Raster dst, boolean vector);
    }

    /** One random case: its number, the generator (for the filter's parameters), the image and a non-empty region. */
    public record Case(int index, SplittableRandom rnd, Raster src, Region region) {

        /** {@code case <i> <w>x<h> <region>}: where a failure message starts. */
        public String description() {
            return "case " + index + " " + src.width() + "x" + src.height() + " " + region;
        }

        /**
         * Asserts that {@code kernel}, vector path on and off, writes exactly what {@code straightforward} writes.
         *
         * @param params the filter's parameters for failure messages ({@code "n=3"}), or "" for none
         */
        public void assertKernelsAgree(String params, Consumer<Raster> straightforward, Kernel kernel) {
            assertAgree(params.isEmpty() ? description() : description() + " " + params, src, straightforward,
                    kernel);
        }
    }

    /** {@code cases} cases from {@code new SplittableRandom(seed)}, images of 1..maxWidth × 1..maxHeight. */
    public static VectorKernelCases of(long seed, int cases, int maxWidth, int maxHeight) {
        return new VectorKernelCases(seed, cases, maxWidth, maxHeight, false);
    }

    /**
     * The same, with every third image (cases 0, 3, 6, …) overwritten by few values, 0, 84, 85, 169, 170, 254 and 255
     * (ties, values on both sides of 128, many maxima).
     */
    public VectorKernelCases fewValuedEveryThird() {
        return new VectorKernelCases(seed, cases, maxWidth, maxHeight, true);
    }

    /**
     * Asserts the JVM has the Vector API, then hands each case with a non-empty region to {@code check}, which
     * draws the filter's parameters from {@link Case#rnd()} and calls {@link Case#assertKernelsAgree}.
     */
    public void forEach(Consumer<Case> check) {
        assertThat(ModuleLayer.boot().findModule("jdk.incubator.vector"))
                .as("tests run with --add-modules jdk.incubator.vector").isPresent();
        assumeTrue(VectorSupport.AVAILABLE, "vectors narrower than " + VectorSupport.MIN_BITS + " bits: scalar only");
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < cases; i++) {
            int w = 1 + rnd.nextInt(maxWidth);
            int h = 1 + rnd.nextInt(maxHeight);
            Raster src = TestRasters.random(rnd, w, h);
            if (fewValued && i % 3 == 0) {
                byte[] rgb = src.rgb();
                for (int k = 0; k < rgb.length; k++) {
                    rgb[k] = (byte) (rnd.nextInt(4) * 85 - (rnd.nextBoolean() ? 0 : 1)); // 0,84,85,169,170,254,255…
                }
            }
            Region random = TestRasters.randomRegion(rnd, w, h); // null: the whole image
            Region region = random == null ? src.bounds() : random.clip(w, h);
            if (region.isEmpty()) {
                continue;
            }
            check.accept(new Case(i, rnd, src, region));
        }
    }

    /**
     * Asserts that {@code kernel}, vector path on and off, writes exactly the bytes {@code straightforward} writes
     * into a copy of {@code src}.
     *
     * @param what describes the case for failure messages; {@code vector=true|false} is appended
     */
    public static void assertAgree(String what, Raster src, Consumer<Raster> straightforward, Kernel kernel) {
        Raster expected = src.copy();
        straightforward.accept(expected);
        for (boolean vector : new boolean[] {true, false}) {
            Raster actual = src.copy();
            kernel.apply(actual, vector);
            assertThat(TestRasters.firstDifference(expected, actual)).as("%s vector=%b", what, vector).isNull();
        }
    }
}
