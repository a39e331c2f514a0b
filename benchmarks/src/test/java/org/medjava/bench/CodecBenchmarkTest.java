package org.medjava.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.medjava.bench.CodecBenchmark.Codec;
import org.medjava.bench.setup.ImageSize;

/**
 * The codecs {@link CodecBenchmark} times give every sample back, and the sizes its target compares: HTJ2K within 10%
 * of JPEG 2000 lossless on the 512² CT phantom (sizes are deterministic; the times are JMH's, not a test's).
 */
class CodecBenchmarkTest {

    @Test
    void everyCodecIsLosslessOnThePhantom() throws Exception {
        ImageSize size = ImageSize.parse("96x64");
        byte[] samples = CodecBenchmark.ctFrame(size);
        for (Codec c : Codec.values()) {
            byte[] coded = c.encode(samples, size.width(), size.height());
            assertThat(coded.length).as(c.id()).isLessThan(samples.length);
            assertThat(c.decode(coded, size.width(), size.height())).as(c.id()).isEqualTo(samples);
        }
    }

    @Test
    void htj2kIsWithinTenPercentOfJpeg2000LosslessInSize() throws Exception {
        ImageSize size = ImageSize.parse("512");
        byte[] samples = CodecBenchmark.ctFrame(size);
        long htj2k = Codec.HTJ2K_OPENJPH.encode(samples, 512, 512).length;
        for (Codec j2k : new Codec[] {Codec.J2K_OPENJPEG, Codec.J2K_JJ2000}) {
            long other = j2k.encode(samples, 512, 512).length;
            assertThat((double) htj2k / other).as("HTJ2K ÷ " + j2k.id()).isLessThanOrEqualTo(1.10);
        }
    }
}
