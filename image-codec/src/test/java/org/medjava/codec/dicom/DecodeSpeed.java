package org.medjava.codec.dicom;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Decode time of image-codec on whole Part 10 files, for src/test/scripts/decode-speed.sh (not a test: timings are
 * reported, never asserted). For each file: the median and best of {@code runs} decodes of every frame after
 * {@code warmup} untimed ones, in a warm JVM, parsing included; and the SHA-256 of frame 0 as decoded.
 *
 * <pre>java -cp … org.medjava.codec.dicom.DecodeSpeed [runs] file.dcm…</pre>
 */
public final class DecodeSpeed {
    private DecodeSpeed() {
    }

    public static void main(String[] args) throws Exception {
        int runs = 15;
        int first = 0;
        if (args.length > 0 && args[0].matches("\\d+")) {
            runs = Integer.parseInt(args[0]);
            first = 1;
        }
        for (String name : Arrays.copyOfRange(args, first, args.length)) {
            byte[] file = Files.readAllBytes(Path.of(name));
            int frames = DicomCodec.read(file, 0, Long.MAX_VALUE).frameCount();
            for (int i = 0; i < 5; i++) {
                decodeAll(file, frames);
            }
            long[] times = new long[runs];
            for (int i = 0; i < runs; i++) {
                long t0 = System.nanoTime();
                decodeAll(file, frames);
                times[i] = System.nanoTime() - t0;
            }
            Arrays.sort(times);
            System.out.printf("%s\tframes=%d\tmedian_ms=%.1f\tbest_ms=%.1f\tframe0_sha256=%s%n",
                    Path.of(name).getFileName(), frames, times[runs / 2] / 1e6, times[0] / 1e6,
                    DecodedPixelsTest.sha256(PixelFrames.nativeFrame(file, 0)));
        }
    }

    private static void decodeAll(byte[] file, int frames) throws Exception {
        for (int f = 0; f < frames; f++) {
            PixelFrames.nativeFrame(file, f);
        }
    }
}
