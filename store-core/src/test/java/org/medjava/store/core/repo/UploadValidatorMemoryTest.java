package org.medjava.store.core.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.ImageFormat;
import org.medjava.store.core.BusyException;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.memory.DecodeBudget;
import org.medjava.store.core.testsupport.BlankPng;

/**
 * The validation of uploads under the decode budget: small files declaring huge images are refused from their header
 * (413), a busy budget answers 503, and what is checked is decoded without holding its pixels.
 */
class UploadValidatorMemoryTest {

    private static final long MIB = 1 << 20;

    @TempDir
    Path dir;

    @Test
    void aSmallPngDeclaringMoreThanTheBudgetCanEverHoldIs413() throws IOException {
        Path png = BlankPng.write(dir.resolve("wide.png"), 4_000_000, 1, 0); // 4 KB on disk, 4 MB of pixels
        UploadValidator validator = new UploadValidator(ImageCodec.DEFAULT_MAX_PIXELS, new DecodeBudget(8 * MIB, 0));
        assertThatThrownBy(() -> validator.checkImage(ImageFormat.PNG, png))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind())
                        .isEqualTo(StoreException.Kind.TOO_LARGE))
                .hasMessageContaining("PNG 4000000x1")
                .hasMessageContaining("decode budget of 8.0 MiB");
    }

    @Test
    void theSameImageWithinTheBudgetDecodes() throws IOException {
        Path png = BlankPng.write(dir.resolve("wide.png"), 4_000_000, 1, 0);
        UploadValidator validator = new UploadValidator(ImageCodec.DEFAULT_MAX_PIXELS, new DecodeBudget(64 * MIB, 0));
        validator.checkImage(ImageFormat.PNG, png);
    }

    @Test
    void aBusyBudgetIs503AndLeavesNothingTaken() throws IOException {
        Path png = dir.resolve("small.png");
        Files.write(png, TestImages.png(300, 200, 1));
        DecodeBudget budget = new DecodeBudget(16 * MIB, 10);
        UploadValidator validator = new UploadValidator(ImageCodec.DEFAULT_MAX_PIXELS, budget);
        try (DecodeBudget.Permit others = budget.admit(16 * MIB, "others")) {
            assertThatThrownBy(() -> validator.checkImage(ImageFormat.PNG, png)).isInstanceOf(BusyException.class);
        }
        validator.checkImage(ImageFormat.PNG, png);
        assertThat(budget.inUse()).isZero();
    }

    @Test
    void damageIsStill422() throws IOException {
        byte[] good = TestImages.png(300, 200, 1);
        Path cut = dir.resolve("cut.png");
        Files.write(cut, TestImages.truncated(good));
        UploadValidator validator = new UploadValidator(ImageCodec.DEFAULT_MAX_PIXELS, new DecodeBudget(64 * MIB, 0));
        assertThatThrownBy(() -> validator.checkImage(ImageFormat.PNG, cut))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind())
                        .isEqualTo(StoreException.Kind.UNPROCESSABLE));
    }

    /**
     * Before/after for the report (issue 15, defect 5): seconds to validate a 16384 x 16384 RGB PNG and a
     * 268,000,000 x 1 PNG by a full decode (before) and by the budgeted check (after). Run with
     * {@code -Dmedjava.measure.decode=true -Dtest=UploadValidatorMemoryTest}; needs a heap of 4 GiB or more.
     */
    @Test
    @EnabledIfSystemProperty(named = "medjava.measure.decode", matches = "true")
    @Timeout(900)
    void measureValidationBeforeAndAfter() throws IOException {
        UploadValidator validator = new UploadValidator(ImageCodec.DEFAULT_MAX_PIXELS, DecodeBudget.UNLIMITED);
        for (int[] size : new int[][] {{16384, 16384, 2}, {268_000_000, 1, 0}}) {
            Path png = BlankPng.write(dir.resolve("m.png"), size[0], size[1], size[2]);
            long t0 = System.nanoTime();
            try (InputStream in = Files.newInputStream(png)) {
                ImageCodec.read(in, ImageCodec.DEFAULT_MAX_PIXELS);
            }
            long t1 = System.nanoTime();
            validator.checkImage(ImageFormat.PNG, png);
            long t2 = System.nanoTime();
            System.out.printf("MEASURE %dx%d PNG (%d bytes): full decode %.1f s, budgeted check %.1f s%n", size[0],
                    size[1], Files.size(png), (t1 - t0) / 1e9, (t2 - t1) / 1e9);
        }
    }
}
