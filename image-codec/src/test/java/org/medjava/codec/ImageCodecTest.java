package org.medjava.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.Raster;

class ImageCodecTest {
    @TempDir
    Path dir;

    static Raster noise(int w, int h, long seed) {
        byte[] rgb = new byte[3 * w * h];
        new Random(seed).nextBytes(rgb);
        return new Raster(w, h, rgb);
    }

    /** A GIF of the project's samples (testdata/samples/gif, copied from the shared test data). */
    static Path shared(String name) {
        String root = System.getProperty("medjava.root", "..");
        return Path.of(root).resolve("testdata/samples/gif").resolve(name);
    }

    @Test
    void ppmAndPngRoundTripExactly() throws IOException {
        Raster image = noise(37, 11, 1);
        for (String name : new String[] {"a.ppm", "a.png"}) {
            ImageCodec.write(image, dir.resolve(name));
            assertThat(ImageCodec.read(dir.resolve(name)).sameContent(image)).as(name).isTrue();
        }
    }

    @Test
    void gifRoundTripsExactlyWithAtMost256ColoursAndSaysWhenItCannot() throws IOException {
        Raster few = new Raster(20, 10);
        for (int y = 0; y < 10; y++) {
            for (int x = 0; x < 20; x++) {
                few.setRgb(x, y, (x * 12) << 16 | (y * 25) << 8 | 7);
            }
        }
        ImageCodec.write(few, dir.resolve("few.gif"));
        assertThat(ImageCodec.read(dir.resolve("few.gif")).sameContent(few)).isTrue();
        assertThat(ImageCodec.isLossless(few, ImageFormat.GIF)).isTrue();
        assertThat(ImageCodec.isLossless(noise(40, 40, 2), ImageFormat.GIF)).isFalse();
    }

    @Test
    void greyImagesKeepTheirValuesThroughPng() throws IOException {
        Raster grey = new Raster(256, 1);
        for (int x = 0; x < 256; x++) {
            grey.setRgb(x, 0, x * 0x010101);
        }
        ImageCodec.write(grey, dir.resolve("grey.png"));
        assertThat(ImageCodec.read(dir.resolve("grey.png")).sameContent(grey)).isTrue();
    }

    @Test
    void readsTheSampleGifsOfTheImageStore() throws IOException {
        Raster ct = ImageCodec.read(shared("ct-small.gif"));
        Raster colour = ImageCodec.read(shared("color.gif"));
        assertThat(ct.width()).isEqualTo(128);
        assertThat(ct.height()).isEqualTo(128);
        assertThat(colour.width()).isEqualTo(320);
        assertThat(colour.height()).isEqualTo(240);
    }

    @Test
    void formatIsSniffedFromContentNotName() throws IOException {
        Raster image = noise(5, 4, 3);
        ImageCodec.write(image, dir.resolve("x.png"));
        Files.move(dir.resolve("x.png"), dir.resolve("misnamed.gif"));
        assertThat(ImageCodec.read(dir.resolve("misnamed.gif")).sameContent(image)).isTrue();
    }

    @Test
    void nonImageAndTruncatedInputGiveClearErrors() throws IOException {
        Files.writeString(dir.resolve("text.png"), "hello, not an image");
        assertThatThrownBy(() -> ImageCodec.read(dir.resolve("text.png")))
                .isInstanceOf(ImageDecodeException.class).hasMessageContaining("unrecognised image data");

        ByteArrayOutputStream ppm = new ByteArrayOutputStream();
        Ppm.write(noise(10, 10, 4), ppm);
        byte[] cut = Arrays.copyOf(ppm.toByteArray(), ppm.size() - 30);
        assertThatThrownBy(() -> ImageCodec.read(cut)).isInstanceOf(ImageDecodeException.class)
                .hasMessageContaining("PPM truncated").hasMessageContaining("needs 300 bytes");

        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ImageCodec.write(noise(64, 64, 5), ImageFormat.PNG, png);
        byte[] cutPng = Arrays.copyOf(png.toByteArray(), png.size() / 2);
        assertThatThrownBy(() -> ImageCodec.read(cutPng)).isInstanceOf(ImageDecodeException.class)
                .hasMessageContaining("PNG data is damaged or truncated");

        assertThatThrownBy(() -> ImageCodec.read(new byte[0])).hasMessageContaining("empty input");
        assertThatThrownBy(() -> ImageCodec.read("P6\n4 4\n65535\n".getBytes(StandardCharsets.US_ASCII)))
                .hasMessageContaining("maxval 65535 is not supported");
        assertThatThrownBy(() -> ImageCodec.read("P6\n# c\nx 4\n255\n".getBytes(StandardCharsets.US_ASCII)))
                .hasMessageContaining("expected the width");
        // found by the fuzzer: a header ending right after a number was an EOFException, not a refusal
        assertThatThrownBy(() -> ImageCodec.read("P6\n12".getBytes(StandardCharsets.US_ASCII)))
                .isInstanceOf(ImageDecodeException.class).hasMessageContaining("truncated after the width");
    }

    @Test
    void hugeImagesAreRefusedBeforeTheirPixelsAreAllocated() {
        byte[] header = "P6\n100000 100000\n255\n".getBytes(StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> ImageCodec.read(new ByteArrayInputStream(header), ImageCodec.DEFAULT_MAX_PIXELS))
                .isInstanceOf(ImageDecodeException.class).hasMessageContaining("exceeds the limit");
    }

    @Test
    void aFailedWriteLeavesTheExistingFileIntactAndNoPartialFile() throws IOException {
        Path target = dir.resolve("keep.ppm");
        Raster original = noise(8, 8, 6);
        ImageCodec.write(original, target);

        assertThatThrownBy(() -> ImageCodec.write(original, dir.resolve("out.bmpx")))
                .hasMessageContaining("cannot tell the output format");
        assertThatThrownBy(() -> ImageCodec.writeAtomically(target, out -> {
            out.write(new byte[100_000]); // half-written...
            throw new IOException("disk full");
        })).hasMessageContaining("disk full");

        assertThat(ImageCodec.read(target).sameContent(original)).isTrue();
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("keep.ppm");
        }
    }

    @Test
    void aWrittenFileHasTheModeOfAnyNewFileNotTheTempFiles0600() throws IOException {
        Path plain = dir.resolve("plain.bin");
        Files.write(plain, new byte[1]); // created as any tool creates a file: 0666 less the umask
        Path written = dir.resolve("out.png");

        ImageCodec.write(noise(4, 4, 1), written);

        assertThat(Files.getPosixFilePermissions(written)).isEqualTo(Files.getPosixFilePermissions(plain));
        assertThat(Files.getPosixFilePermissions(written)).as("the umask of this run lets others read")
                .contains(PosixFilePermission.OTHERS_READ);
    }

    @Test
    void aWriteTheFileSystemRefusesNamesTheFileAndTheReasonNotTheTempFile() throws IOException {
        Path missing = dir.resolve("no/such/dir/out.png");
        assertThatThrownBy(() -> ImageCodec.write(noise(4, 4, 1), missing))
                .hasMessage("cannot write " + missing + ": no such directory " + missing.getParent())
                .hasMessageNotContaining(".part");
        Path file = Files.write(dir.resolve("a-file"), new byte[1]);
        assertThatThrownBy(() -> ImageCodec.write(noise(4, 4, 1), file.resolve("out.png")))
                .hasMessage("cannot write " + file.resolve("out.png") + ": " + file + " is a file, not a directory");
        // a directory the user may not write to (the tests run as root, who may: the refusal itself is simulated)
        IOException denied = AtomicFile.cannotWrite(Path.of("out.png"), Path.of("/x"),
                new java.nio.file.AccessDeniedException("/x/.out.png.123.part"));
        assertThat(denied).hasMessage("cannot write out.png: permission denied in /x");
    }

    @Test
    void readingAGifPrintsNothingToStandardError() throws IOException {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            assertThat(ImageCodec.read(shared("ct-small.gif")).width()).isPositive();
            assertThat(DecodeCheck.verify(shared("ct-small.gif"), ImageCodec.DEFAULT_MAX_PIXELS).width())
                    .isPositive();
            ByteArrayOutputStream png = new ByteArrayOutputStream();
            ImageCodec.write(noise(5, 3, 2), ImageFormat.PNG, png);
            assertThat(ImageCodec.decodeImage(png.toByteArray()).getWidth()).isEqualTo(5);
        } finally {
            System.setErr(original);
        }
        // PixelMed's JPEG-lossless reader prints "JPEGLosslessImageReaderSpi.canDecodeInput() = false" when asked
        assertThat(captured.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
