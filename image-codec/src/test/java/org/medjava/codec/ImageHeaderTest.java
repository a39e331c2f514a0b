package org.medjava.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.Raster;

class ImageHeaderTest {

    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @Test
    void pngHeaderIsReadFromIhdr() throws IOException {
        ImageHeader h = peek(encode(new Raster(37, 11), ImageFormat.PNG));
        assertEquals(ImageFormat.PNG, h.format());
        assertEquals(37, h.width());
        assertEquals(11, h.height());
        assertEquals(1, h.frames());
    }

    @Test
    void aTinyPngDeclaringAHugeImageIsKnownBeforeDecoding() throws IOException {
        ImageHeader h = peek(pngHeader(268_000_000, 1, 8, 2));
        assertEquals(268_000_000L, h.pixels());
        assertEquals(3, h.bytesPerPixel());
        assertEquals(804_000_000L, h.decodedBytes());
    }

    @Test
    void sixteenBitRgbaPixelsTakeEightBytes() throws IOException {
        assertEquals(8, peek(pngHeader(5, 5, 16, 6)).bytesPerPixel());
        assertEquals(1, peek(pngHeader(5, 5, 1, 0)).bytesPerPixel());
    }

    @Test
    void gifHeaderCountsFramesAndTakesTheFirstFrameSize() throws IOException {
        byte[] gif = encode(new Raster(20, 9), ImageFormat.GIF);
        ImageHeader h = peek(gif);
        assertEquals(ImageFormat.GIF, h.format());
        assertEquals(20, h.width());
        assertEquals(9, h.height());
        assertEquals(1, h.frames());
        assertEquals(1, h.bytesPerPixel());
    }

    @Test
    void jpegHeaderIsReadFromTheFrameHeader() throws IOException {
        Raster colour = new Raster(33, 17);
        colour.rgb()[0] = 100;
        ImageHeader h = peek(encode(colour, ImageFormat.JPEG));
        assertEquals(ImageFormat.JPEG, h.format());
        assertEquals(33, h.width());
        assertEquals(17, h.height());
        assertEquals(3, h.bytesPerPixel());
    }

    @Test
    void dicomHeaderIsReadWithoutThePixelData() throws IOException {
        ImageHeader ct = ImageHeader.peek(resource("CT_small.dcm"));
        assertEquals(ImageFormat.DICOM, ct.format());
        assertEquals(128, ct.width());
        assertEquals(128, ct.height());
        assertEquals(2, ct.bytesPerPixel());
        assertEquals(1, ct.frames());
        ImageHeader rgb = ImageHeader.peek(resource("SC_rgb_rle.dcm"));
        assertEquals(3, rgb.bytesPerPixel());
    }

    @Test
    void ppmHeaderWithComments() throws IOException {
        ImageHeader h = peek("P6\n# made by hand\n4 3\n255\n".getBytes());
        assertEquals(4, h.width());
        assertEquals(3, h.height());
        assertEquals(3, h.bytesPerPixel());
    }

    @Test
    void malformedHeadersAreRefusedWithTheReason() throws IOException {
        assertMessage("truncated", Arrays.copyOf(encode(new Raster(3, 3), ImageFormat.PNG), 20));
        assertMessage("colour type 5", pngHeader(3, 3, 8, 5));
        assertMessage("bit depth 7", pngHeader(3, 3, 7, 2));
        assertMessage("each side must be", pngHeader(0, 3, 8, 2));
        byte[] noIhdr = pngHeader(3, 3, 8, 2);
        noIhdr[12] = 'X';
        assertMessage("IHDR", noIhdr);
        assertMessage("no frame header", new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xD9});
        assertMessage("marker expected", new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0, 2, 7});
        assertMessage("GIF holds no image", new byte[] {'G', 'I', 'F', '8', '9', 'a', 1, 0, 1, 0, 0, 0, 0});
        assertMessage("block type 0x3a", new byte[] {'G', 'I', 'F', '8', '9', 'a', 1, 0, 1, 0, 0, 0, 0, 0x3A});
        assertMessage("unrecognised", "hello".getBytes());
        assertMessage("empty", new byte[0]);
        byte[] dicom = Files.readAllBytes(resource("CT_small.dcm"));
        assertMessage("truncated|does not parse|no image", Arrays.copyOf(dicom, 200));
    }

    @Test
    void decodedSizeSaturatesInsteadOfOverflowing() {
        ImageHeader h = new ImageHeader(ImageFormat.DICOM, 65535, 65535, Integer.MAX_VALUE, 8);
        assertEquals(Long.MAX_VALUE, h.decodedBytes());
    }

    @Test
    void decodeCheckAcceptsWhatDecodesAndRefusesDamage(@TempDir Path dir) throws IOException {
        Path good = dir.resolve("good.png");
        Files.write(good, encode(new Raster(2000, 30), ImageFormat.PNG));
        assertEquals(2000, DecodeCheck.verify(good, Long.MAX_VALUE).width());
        byte[] bytes = Files.readAllBytes(good);
        Path cut = dir.resolve("cut.png");
        Files.write(cut, Arrays.copyOf(bytes, bytes.length - 40));
        assertThrows(ImageDecodeException.class, () -> ImageCodec.read(Files.newInputStream(cut), Long.MAX_VALUE));
        assertThrows(ImageDecodeException.class, () -> DecodeCheck.verify(cut, Long.MAX_VALUE));
        ImageDecodeException tooLarge = assertThrows(ImageDecodeException.class,
                () -> DecodeCheck.verify(good, 1000));
        assertTrue(tooLarge.getMessage().contains("exceeds the limit of 1000 pixels"), tooLarge.getMessage());
        assertTrue(DecodeCheck.memoryBytes(ImageHeader.peek(good)) < 2000L * 30 * 4 + 2 * 2000 * 3 + 1);
    }

    private static void assertMessage(String expected, byte[] data) {
        ImageDecodeException e = assertThrows(ImageDecodeException.class, () -> peek(data));
        assertTrue(e.getMessage().matches("(?s).*(" + expected + ").*"), e.getMessage());
    }

    private static ImageHeader peek(byte[] data) throws IOException {
        try (InputStream in = new ByteArrayInputStream(data)) {
            return ImageHeader.peek(in);
        }
    }

    private static byte[] encode(Raster raster, ImageFormat format) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageCodec.write(raster, format, out);
        return out.toByteArray();
    }

    /** A PNG signature and IHDR only: enough for the header, not an image. */
    static byte[] pngHeader(long width, long height, int depth, int colourType) {
        byte[] png = Arrays.copyOf(PNG_SIGNATURE, 8 + 8 + 13 + 4);
        int p = 8;
        p = putInt(png, p, 13);
        png[p++] = 'I';
        png[p++] = 'H';
        png[p++] = 'D';
        png[p++] = 'R';
        p = putInt(png, p, (int) width);
        p = putInt(png, p, (int) height);
        png[p++] = (byte) depth;
        png[p] = (byte) colourType;
        return png;
    }

    private static int putInt(byte[] b, int p, int v) {
        b[p] = (byte) (v >>> 24);
        b[p + 1] = (byte) (v >>> 16);
        b[p + 2] = (byte) (v >>> 8);
        b[p + 3] = (byte) v;
        return p + 4;
    }

    private static Path resource(String name) {
        try {
            return Path.of(ImageHeaderTest.class.getResource("/dicom/" + name).toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
