package org.medjava.codec.dicom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.ImageDecodeException;
import org.medjava.codec.ImageFormat;
import org.medjava.filter.Raster;
import org.medjava.filter.testkit.ByteSearch;
import org.medjava.filter.testkit.LyingFrameHeader;

/**
 * Every sample file decodes to the right size with hand-checked pixels, or fails with its documented message.
 * Expected values are computed here from the raw bytes of the files (the pixel data is the last element of each
 * uncompressed sample), not through PixelMed.
 */
class DicomCodecTest {
    static byte[] bytes(String name) {
        try (InputStream in = DicomCodecTest.class.getResourceAsStream("/dicom/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource dicom/" + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static DicomImage read(String name) throws IOException {
        return DicomCodec.read(bytes(name), 0, Raster.MAX_PIXELS);
    }

    /** A file of the shared test data that is too large to copy here; the test is skipped without it. */
    static Path shared(String name) {
        Path p = Path.of(System.getProperty("medjava.root", "..")).resolve("../shared/testdata/dicom").resolve(name);
        assumeTrue(Files.isRegularFile(p), "shared test data absent: " + p);
        return p;
    }

    /**
     * Where the value of Pixel Data (7FE0,0010) starts in an uncompressed little-endian file, found from its tag
     * bytes (explicit VR: tag, "OW"/"OB", 2 reserved bytes, 4-byte length; implicit VR: tag, 4-byte length).
     */
    static int pixelDataOffset(byte[] file) {
        for (int i = file.length - 8; i >= 132; i--) {
            if ((file[i] & 0xFF) == 0xE0 && file[i + 1] == 0x7F && file[i + 2] == 0x10 && file[i + 3] == 0) {
                return file[i + 4] == 'O' ? i + 12 : i + 8;
            }
        }
        throw new AssertionError("no Pixel Data tag");
    }

    /** The first {@code count} 16-bit little-endian words of the pixel data: an uncompressed frame's values. */
    static int[] pixelWords(byte[] file, int count, boolean signed) {
        ByteBuffer b = ByteBuffer.wrap(file, pixelDataOffset(file), 2 * count).order(ByteOrder.LITTLE_ENDIAN);
        int[] v = new int[count];
        for (int i = 0; i < count; i++) {
            short s = b.getShort();
            v[i] = signed ? s : s & 0xFFFF;
        }
        return v;
    }

    static int grey(Raster r, int x, int y) {
        int p = r.rgbAt(x, y);
        assertThat(p >>> 16).isEqualTo(p & 0xFF).isEqualTo(p >>> 8 & 0xFF);
        return p & 0xFF;
    }

    // ---- the VOI window function (PS3.3 C.11.2.1.2.1) ----

    @Test
    void windowIsTheLinearFunctionOfTheStandard() {
        Window w = new Window(600, 1600);
        // bounds: x <= c - 0.5 - (w-1)/2 = -200 is 0; x > c - 0.5 + (w-1)/2 = 1399 is 255
        assertThat(w.apply(-200)).isZero();
        assertThat(w.apply(-1e9)).isZero();
        assertThat(w.apply(1399)).isEqualTo(255);
        assertThat(w.apply(1400)).isEqualTo(255);
        assertThat(w.apply(-199)).isEqualTo(0); // (( -199 - 599.5) / 1599 + 0.5) * 255 = 0.16 -> 0
        assertThat(w.apply(905)).isEqualTo(176); // (305.5 / 1599 + 0.5) * 255 = 176.22
        assertThat(w.apply(599.5)).isEqualTo(128); // the centre of the ramp: 127.5 rounds up
        // width 1: a threshold at c - 0.5
        Window t = new Window(10, 1);
        assertThat(t.apply(9.5)).isZero();
        assertThat(t.apply(9.6)).isEqualTo(255);
        assertThatThrownBy(() -> new Window(0, 0.5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rangeWindowMapsMinToBlackAndMaxToWhiteLinearly() {
        Window identity = Window.ofRange(0, 255);
        for (int k = 0; k <= 255; k++) {
            assertThat(identity.apply(k)).isEqualTo(k);
        }
        Window w = Window.ofRange(-1000, 3000);
        assertThat(w.apply(-1000)).isZero();
        assertThat(w.apply(3000)).isEqualTo(255);
        assertThat(w.apply(1000)).isEqualTo(128); // 2000 / 4000 * 255 = 127.5
    }

    @Test
    void signedValuesRescaleAndMonochrome1Inversion() {
        int[] values = {-32768, -1, 0, 1000, 32767};
        DicomAttributes ids = new DicomAttributes("", "", "", "", "", "", "CT", DicomCodec.EXPLICIT_LE);
        DicomImage m2 = new DicomImage(null, ids, 5, 1, 0, 1, "MONOCHROME2", 16, true, 2, -1000,
                List.of(new Window(0, 4001)), values, null);
        // modality = 2 * stored - 1000; window 0/4001 spans -2000.5..1999.5
        assertThat(m2.modalityValue(1, 0)).isEqualTo(-1002);
        Raster r = m2.render();
        assertThat(grey(r, 0, 0)).isZero();
        assertThat(grey(r, 1, 0)).isEqualTo(new Window(0, 4001).apply(-1002)).isEqualTo(64);
        assertThat(grey(r, 2, 0)).isEqualTo(new Window(0, 4001).apply(-1000));
        assertThat(grey(r, 3, 0)).isEqualTo(new Window(0, 4001).apply(1000)).isEqualTo(191);
        assertThat(grey(r, 4, 0)).isEqualTo(255);

        DicomImage m1 = new DicomImage(null, ids, 5, 1, 0, 1, "MONOCHROME1", 16, true, 2, -1000,
                List.of(new Window(0, 4001)), values, null);
        Raster inverted = m1.render();
        for (int x = 0; x < 5; x++) {
            assertThat(grey(inverted, x, 0)).isEqualTo(255 - grey(r, x, 0));
        }
        // an explicit window overrides the file's; no window at all falls back to the value range
        assertThat(grey(m2.render(new Window(-1002, 1)), 1, 0)).isEqualTo(255);
        DicomImage none = new DicomImage(null, ids, 5, 1, 0, 1, "MONOCHROME2", 16, true, 1, 0, List.of(), values,
                null);
        assertThat(none.defaultWindow()).contains(Window.ofRange(-32768, 32767));
        assertThat(grey(none.render(), 0, 0)).isZero();
        assertThat(grey(none.render(), 4, 0)).isEqualTo(255);
    }

    // ---- pixel values checked against the raw file bytes ----

    @Test
    void mrSmallThroughItsWindowMatchesValuesComputedByHand() throws IOException {
        DicomImage mr = read("MR_small.dcm");
        assertThat(mr.width()).isEqualTo(64);
        assertThat(mr.height()).isEqualTo(64);
        assertThat(mr.isSigned()).isTrue();
        assertThat(mr.windowPresets()).containsExactly(new Window(600, 1600));
        int[] raw = pixelWords(bytes("MR_small.dcm"), 64 * 64, true);
        assertThat(mr.storedValues()).containsExactly(raw);
        assertThat(raw[0]).isEqualTo(905);
        assertThat(raw[32 * 64 + 32]).isEqualTo(182);
        Raster r = mr.render();
        assertThat(grey(r, 0, 0)).isEqualTo(176); // ((905 - 599.5) / 1599 + 0.5) * 255 = 176.22
        assertThat(grey(r, 32, 32)).isEqualTo(61); // ((182 - 599.5) / 1599 + 0.5) * 255 = 60.92
        for (int p = 0; p < raw.length; p++) {
            double y = ((raw[p] - 599.5) / 1599 + 0.5) * 255;
            int expected = raw[p] <= -200 ? 0 : raw[p] > 1399 ? 255 : (int) Math.round(y);
            assertThat(grey(r, p % 64, p / 64)).as("pixel %d", p).isEqualTo(expected);
        }
        assertThat(mr.attributes().patientId()).isEqualTo("4MR1");
        assertThat(mr.attributes().modality()).isEqualTo("MR");
        assertThat(mr.attributes().sopInstanceUid()).isEqualTo("1.3.6.1.4.1.5962.1.1.4.1.1.20040826185059.5457");
        assertThat(mr.attributes().studyInstanceUid()).isEqualTo("1.3.6.1.4.1.5962.1.2.4.20040826185059.5457");
        assertThat(mr.attributes().seriesInstanceUid()).isEqualTo("1.3.6.1.4.1.5962.1.3.4.1.20040826185059.5457");
    }

    @Test
    void ctSmallWithoutWindowUsesTheRangeOfItsHounsfieldValues() throws IOException {
        DicomImage ct = read("CT_small.dcm");
        assertThat(ct.windowPresets()).isEmpty();
        assertThat(ct.rescaleIntercept()).isEqualTo(-1024);
        int[] raw = pixelWords(bytes("CT_small.dcm"), 128 * 128, true);
        assertThat(ct.storedValues()).containsExactly(raw);
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        for (int v : raw) {
            min = Math.min(min, v - 1024);
            max = Math.max(max, v - 1024);
        }
        assertThat(ct.modalityValue(0, 0)).isEqualTo(raw[0] - 1024);
        Raster r = ct.render();
        for (int p = 0; p < raw.length; p++) {
            int expected = (int) Math.round((raw[p] - 1024 - min) * 255.0 / (max - min));
            assertThat(grey(r, p % 128, p / 128)).as("pixel %d", p).isEqualTo(expected);
        }
        // a CT lung window given explicitly
        Raster lung = ct.render(new Window(-600, 1500));
        assertThat(grey(lung, 0, 0)).isEqualTo(new Window(-600, 1500).apply(raw[0] - 1024));
    }

    @Test
    void theSamePixelsInFiveEncodingsDecodeToTheIdenticalRaster() throws IOException {
        Raster reference = read("MR_small.dcm").render();
        for (String name : new String[] {"MR_small_implicit.dcm", "MR_small_bigendian.dcm", "MR_small_RLE.dcm",
                "MR_small_jp2klossless.dcm"}) {
            DicomImage image = read(name);
            assertThat(image.storedValues()).as(name).containsExactly(read("MR_small.dcm").storedValues());
            assertThat(image.render().sameContent(reference)).as(name).isTrue();
        }
    }

    @Test
    void rtDose32BitIsDecodedByHandAndFramesAreSelectable() throws IOException {
        byte[] file = bytes("rtdose.dcm");
        DicomImage dose = DicomCodec.read(file, 0, Raster.MAX_PIXELS);
        assertThat(dose.frameCount()).isEqualTo(15);
        assertThat(dose.bitsStored()).isEqualTo(32);
        int start = pixelDataOffset(file);
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        for (int f : new int[] {0, 7, 14}) {
            int[] expected = new int[100];
            for (int i = 0; i < 100; i++) {
                expected[i] = b.getInt(start + 400 * f + 4 * i);
            }
            DicomImage frame = DicomCodec.read(file, f, Raster.MAX_PIXELS);
            assertThat(frame.frame()).isEqualTo(f);
            assertThat(frame.storedValues()).as("frame %d", f).containsExactly(expected);
            assertThat(frame.render().width()).isEqualTo(10);
        }
        assertThatThrownBy(() -> DicomCodec.read(file, 15, Raster.MAX_PIXELS))
                .isInstanceOf(ImageDecodeException.class).hasMessageContaining("frame 15 does not exist")
                .hasMessageContaining("has 15 frames (0 to 14)");
    }

    @Test
    void colourImagesBecomeRgb() throws IOException {
        Raster rle = read("SC_rgb_rle.dcm").render();
        assertThat(rle.width()).isEqualTo(100);
        assertThat(rle.rgbAt(0, 0)).isEqualTo(0xFF0000);
        assertThat(rle.rgbAt(99, 99)).isEqualTo(0xFFFFFF);
        // SC_rgb_small_odd: 3x3 RGB in OW with 27 bytes; PixelMed alone zeroes the last sample
        byte[] odd = bytes("SC_rgb_small_odd.dcm");
        Raster small = DicomCodec.read(odd, 0, Raster.MAX_PIXELS).render();
        int start = pixelDataOffset(odd);
        byte[] expected = java.util.Arrays.copyOfRange(odd, start, start + 27);
        assertThat(small.rgb()).containsExactly(expected);
        assertThat(small.rgbAt(2, 2)).isEqualTo(0x9E9E9E);
        // The same red/green/blue test image as YBR_FULL_422 uncompressed, YBR_FULL JPEG and RGB RLE
        for (String name : new String[] {"SC_ybr_full_422_uncompressed.dcm", "SC_rgb_jpeg_dcmtk.dcm"}) {
            Raster r = read(name).render();
            assertThat(maxDifference(r, rle)).as(name).isLessThanOrEqualTo(12);
        }
        Raster big = read("ExplVR_BigEnd.dcm").render();
        assertThat(big.width()).isEqualTo(80);
        assertThat(big.height()).isEqualTo(60);
        assertThat(big.rgbAt(40, 30)).isEqualTo(0xFFFF00);
    }

    static int maxDifference(Raster a, Raster b) {
        assertThat(a.sameSize(b)).isTrue();
        int max = 0;
        for (int i = 0; i < a.rgb().length; i++) {
            max = Math.max(max, Math.abs((a.rgb()[i] & 0xFF) - (b.rgb()[i] & 0xFF)));
        }
        return max;
    }

    @ParameterizedTest
    @CsvSource({"JPEG2000.dcm, 256, 1024", "image_dfl.dcm, 512, 512", "liver_1frame.dcm, 512, 512"})
    void otherSamplesDecodeToTheirSize(String name, int width, int height) throws IOException {
        Raster r = read(name).render();
        assertThat(r.width()).isEqualTo(width);
        assertThat(r.height()).isEqualTo(height);
    }

    @Test
    void oneBitSegmentationIsBlackAndWhite() throws IOException {
        DicomImage seg = read("liver_1frame.dcm");
        Raster r = seg.render();
        for (int p = 0; p < seg.storedValues().length; p++) {
            assertThat(r.rgb()[3 * p] & 0xFF).isEqualTo(seg.storedValues()[p] == 0 ? 0 : 255);
        }
    }

    // ---- clear errors ----

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "MR_truncated.dcm|DICOM data set damaged or truncated: 8192 bytes declared at byte 1500 but only 8130 remain",
        "no_meta.dcm|not a DICOM Part 10 file: no \"DICM\" at offset 128",
        "meta_missing_tsyntax.dcm|file meta information has no Transfer Syntax UID (0002,0010)",
        "badVR.dcm|Number of Frames (0x0028,0x0008) is \"1A\", not a number"})
    void badOrUnsupportedFilesFailWithAClearMessage(String name, String message) {
        assertThatThrownBy(() -> read(name)).isInstanceOf(ImageDecodeException.class)
                .hasMessageContaining(message);
    }

    /**
     * A compressed frame whose own header claims more than the DICOM header: refused before decoding (the messages
     * name the coded size; after decoding they would say "decoded to"), not after gigabytes of image were filled.
     * The file's Rows/Columns stay in limits, so only the frame header says 20000 x 20000.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SC_rgb_jpeg_dcmtk.dcm|JPEG_SOF0|DICOM frame 0 is coded as 20000x20000, the DICOM header says 100x100",
        "JPEG-lossy.dcm|JPEG_SOF1|JPEG frame is 20000x20000, the DICOM header says 256x1024", // 12-bit: our decoder
        "JPEG2000.dcm|JPEG2000_SIZ|DICOM frame 0 is coded as 20000x20000, the DICOM header says 256x1024",
        "MR_small_jp2klossless.dcm|JPEG2000_SIZ|DICOM frame 0 is coded as 20000x20000, the DICOM header says 64x64"})
    void aFrameHeaderClaimingMoreThanTheDicomHeaderIsRefusedBeforeDecoding(String name, LyingFrameHeader header,
            String message) {
        byte[] file = header.claim(bytes(name), 20000);
        assertThatThrownBy(() -> DicomCodec.read(file, 0, Raster.MAX_PIXELS))
                .isInstanceOf(ImageDecodeException.class).hasMessageContaining(message);
    }

    @Test
    void aJpeg2000FrameWithoutItsSizMarkerIsRefused() {
        byte[] file = bytes("JPEG2000.dcm");
        file[ByteSearch.indexOf(file, new byte[] {(byte) 0xFF, 0x4F, (byte) 0xFF, 0x51}) + 3] = 0x52;
        assertThatThrownBy(() -> DicomCodec.read(file, 0, Raster.MAX_PIXELS))
                .isInstanceOf(ImageDecodeException.class)
                .hasMessageContaining("JPEG 2000 frame does not begin with the SOC and SIZ markers");
    }

    @Test
    void imageCodecReadsDicomByContentAndRespectsThePixelLimit() throws IOException {
        byte[] mr = bytes("MR_small.dcm");
        assertThat(ImageFormat.sniff(java.util.Arrays.copyOf(mr, ImageFormat.SNIFF_LENGTH))).contains(
                ImageFormat.DICOM);
        assertThat(ImageCodec.read(mr).sameContent(read("MR_small.dcm").render())).isTrue();
        assertThatThrownBy(() -> ImageCodec.read(new ByteArrayInputStream(mr), 64 * 63))
                .isInstanceOf(ImageDecodeException.class).hasMessageContaining("DICOM 64x64 exceeds the limit");
        assertThat(ImageCodec.read(bytes("MR_small_jpeg_ls_lossless.dcm")).sameContent(read("MR_small.dcm").render()))
                .isTrue();
        assertThat(ImageFormat.fromFileName(Path.of("x.DCM"))).contains(ImageFormat.DICOM);
    }

    @ParameterizedTest
    @ValueSource(strings = {"MR_small.dcm", "SC_rgb_rle.dcm", "rtdose.dcm", "CT_small.dcm"})
    void truncatedFilesNeverEscapeAsRawExceptions(String name) {
        byte[] file = bytes(name);
        for (int cut : new int[] {100, 140, 400, file.length / 2, file.length - 3}) {
            byte[] part = java.util.Arrays.copyOf(file, cut);
            try {
                DicomCodec.read(part, 0, Raster.MAX_PIXELS);
            } catch (ImageDecodeException e) {
                assertThat(e.getMessage()).isNotBlank();
            } catch (Throwable e) {
                throw new AssertionError(name + " cut at " + cut + " escaped as " + e, e);
            }
        }
    }

    // ---- larger samples from the shared folder ----

    @Test
    void monochrome1RadiographIsInvertedThroughItsWindow() throws IOException {
        Path file = shared("RG3_UNCR.dcm");
        DicomImage cr = DicomCodec.read(file);
        assertThat(cr.isMonochrome1()).isTrue();
        assertThat(cr.width()).isEqualTo(1760);
        int[] raw = pixelWords(Files.readAllBytes(file), 1760 * 1760, false);
        Raster r = cr.render();
        Window w = new Window(550, 1024);
        for (int p : new int[] {0, 880 * 1760 + 880, 1000 * 1760 + 600, raw.length - 1}) {
            int stored = raw[p] & 0x3FF;
            assertThat(grey(r, p % 1760, p / 1760)).as("pixel %d (stored %d)", p, stored)
                    .isEqualTo(255 - w.apply(stored));
        }
    }

    @Test
    void largerColourSamplesDecode() throws IOException {
        DicomImage palette = DicomCodec.read(shared("examples_palette.dcm"));
        assertThat(palette.isGrey()).isFalse();
        assertThat(palette.render().width()).isEqualTo(800);
        DicomImage ybr = DicomCodec.read(shared("examples_ybr_color.dcm").toAbsolutePath(), 29, Raster.MAX_PIXELS);
        assertThat(ybr.frameCount()).isEqualTo(30);
        assertThat(ybr.render().height()).isEqualTo(240);
        assertThat(DicomCodec.read(shared("examples_rgb_color.dcm")).render().width()).isEqualTo(320);
        DicomImage overlay = DicomCodec.read(shared("examples_overlay.dcm"));
        assertThat(overlay.windowPresets()).containsExactly(new Window(450, 790), new Window(200, 443));
    }
}
