package org.medjava.store.core.transcode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.testkit.Samples;

/** {@link LosslessRecompression}'s check, and what it does not take. */
class LosslessRecompressionTest {

    @TempDir
    Path dir;

    private static NativeFrames image(int columns, int frames, int... samples) {
        int[][] s = new int[frames][];
        for (int f = 0; f < frames; f++) {
            s[f] = samples.clone();
        }
        return new NativeFrames(1, columns, 1, 16, 12, false, frames, s);
    }

    @Test
    void theCheckNamesTheFirstChangedSampleOrAChangedGeometry() {
        NativeFrames a = image(3, 2, 1, 4095, 65535);
        assertThat(LosslessRecompression.difference(a, image(3, 2, 1, 4095, 65535))).isNull();
        NativeFrames changed = image(3, 2, 1, 4095, 65535);
        changed.samples()[1][2] = 32767; // a high bit lost in the second frame
        assertThat(LosslessRecompression.difference(a, changed)).isEqualTo("frame 2, sample 2: 65535 → 32767");
        assertThat(LosslessRecompression.difference(a, image(3, 1, 1, 4095, 65535))).startsWith("the geometry");
    }

    @Test
    void compressedObjectsAreNotRecompressed() throws Exception {
        Path jpegLs = Samples.dicom("MR_small_jpeg_ls_lossless.dcm");
        assertThat(LosslessRecompression.applies(TransferSyntaxes.JPEG_LS_LOSSLESS, 1000)).isFalse();
        assertThat(LosslessRecompression.applies(TransferSyntaxes.EXPLICIT_LE, LosslessRecompression.MAX_BYTES + 1))
                .isFalse();
        assertThat(LosslessRecompression.applies(TransferSyntaxes.IMPLICIT_LE, 1000)).isTrue();
        assertThatThrownBy(() -> LosslessRecompression.toHtj2k(jpegLs, TransferSyntaxes.JPEG_LS_LOSSLESS,
                dir.resolve("out.dcm"), null)).isInstanceOf(NotTranscodable.class)
                .hasMessageContaining("only uncompressed");
    }
}
