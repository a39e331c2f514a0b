package org.medjava.store.net.dicomweb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.testsupport.SyntheticDicom;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.transcode.TransferSyntaxes;

/**
 * Frames found in place in the stored file are byte for byte the frames PixelMed reads ({@link PixelFrames}): for
 * 16- and 8-bit, monochrome and colour, one frame and several, an odd length (without its padding byte), explicit
 * and implicit VR, with trailing padding after them; anything else is left to PixelMed (null).
 */
class NativeFramesTest {

    @TempDir
    Path dir;

    @Test
    void framesInPlaceAreThoseReadByPixelMed() throws Exception {
        assertSameAsPixelMed(write("ct16", TransferSyntaxes.EXPLICIT_LE, 7, 5, 16, 1, 1, false), 1);
        assertSameAsPixelMed(write("mf16", TransferSyntaxes.EXPLICIT_LE, 6, 4, 16, 1, 3, false), 3);
        assertSameAsPixelMed(write("rgb8", TransferSyntaxes.EXPLICIT_LE, 3, 3, 8, 3, 1, false), 1); // 27 bytes: odd
        assertSameAsPixelMed(write("mono8", TransferSyntaxes.EXPLICIT_LE, 5, 5, 8, 1, 2, false), 2);
        assertSameAsPixelMed(write("implicit", TransferSyntaxes.IMPLICIT_LE, 8, 8, 16, 1, 2, false), 2);
    }

    @Test
    void framesFollowedByTrailingPaddingAreFoundWherePixelMedStops() throws Exception {
        assertSameAsPixelMed(write("trailing", TransferSyntaxes.EXPLICIT_LE, 4, 4, 16, 1, 1, true), 1);
        assertSameAsPixelMed(write("trailing-implicit", TransferSyntaxes.IMPLICIT_LE, 5, 3, 16, 1, 2, true), 2);
    }

    @Test
    void whatIsNotExactlyWhereExpectedIsLeftToPixelMed() throws Exception {
        // big endian: its bytes are not what WADO-RS sends
        assertThat(locate(write("big", TransferSyntaxes.EXPLICIT_BE, 4, 4, 16, 1, 1, false))).isNull();
        // the index says another size than the file holds
        Written w = write("sized", TransferSyntaxes.EXPLICIT_LE, 4, 4, 16, 1, 1, false);
        try (FileChannel file = FileChannel.open(w.file, StandardOpenOption.READ)) {
            assertThat(NativeFrames.locate(file, summary(w.ts, 4, 5, 16, 1))).isNull();
            assertThat(NativeFrames.locate(file, summary(w.ts, 4, 4, 8, 1))).isNull();
            assertThat(NativeFrames.locate(file, summary(w.ts, 4, 4, 16, 2))).isNull();
        }
    }

    private record Written(Path file, String ts, int rows, int columns, int bits, int frames) {
    }

    private static InstanceSummary summary(String ts, int rows, int columns, int bits, int frames) {
        return new InstanceSummary("dicom/P/1.2/1.2.3/1.2.3.4.dcm", "P", "Name", "1.2", null, null, "1.2.3", "CT",
                1, null, "1.2.3.4", "1.2.840.10008.5.1.4.1.1.7", 1, ts, rows, columns, frames == 1 ? null : frames,
                bits, "MONOCHROME2", 0, null, null);
    }

    private NativeFrames.Layout locate(Written w) throws Exception {
        try (FileChannel file = FileChannel.open(w.file, StandardOpenOption.READ)) {
            return NativeFrames.locate(file, summary(w.ts, w.rows, w.columns, w.bits, w.frames));
        }
    }

    private void assertSameAsPixelMed(Written w, int frames) throws Exception {
        PixelFrames read = PixelFrames.read(w.file, w.ts);
        try (FileChannel file = FileChannel.open(w.file, StandardOpenOption.READ)) {
            NativeFrames.Layout layout = NativeFrames.locate(file, summary(w.ts, w.rows, w.columns, w.bits,
                    w.frames));
            assertThat(layout).as(w.file.getFileName().toString()).isNotNull();
            assertThat(layout.count()).isEqualTo(frames).isEqualTo(read.count());
            for (int n = 1; n <= frames; n++) {
                ByteBuffer b = ByteBuffer.allocate((int) layout.frameLength());
                file.read(b, layout.offset() + (n - 1) * layout.frameLength());
                // PixelMed's last frame of an odd length keeps Pixel Data's padding byte: not a pixel
                byte[] pixels = java.util.Arrays.copyOf(read.frame(n), (int) layout.frameLength());
                assertThat(read.frame(n).length - layout.frameLength()).isBetween(0L, n == frames ? 1L : 0L);
                assertThat(b.array()).as(w.file.getFileName() + " frame " + n).isEqualTo(pixels);
            }
        }
    }

    private Written write(String name, String ts, int rows, int columns, int bits, int samples, int frames,
                          boolean trailing) throws Exception {
        SyntheticDicom dicom = SyntheticDicom.of(ts, rows, columns).bits(bits, bits).frames(frames)
                .seed(name.hashCode());
        if (samples == 3) {
            dicom.rgb();
        }
        if (trailing) {
            dicom.trailingPadding();
        }
        Path file = Files.write(dir.resolve(name + ".dcm"), dicom.bytes());
        return new Written(file, ts, rows, columns, bits, frames);
    }
}
