package org.medjava.codec.dicom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.medjava.codec.ImageDecodeException;
import org.medjava.filter.Raster;

/**
 * The formats image-codec decodes itself (JPEG-LS, 12-bit JPEG, RLE of every layout, 32-bit colour, segmented
 * palettes) give exactly the reference pixels of dicom/reference/reference.tsv, which make_reference.py beside it
 * computed with pydicom 3 and DCMTK (see there for who the reference is, file by file).
 */
class DecodedPixelsTest {
    record Reference(String file, int frame, String kind, String sha256, String source, String note) {
        @Override
        public String toString() {
            return file + " frame " + frame + " (" + source + ")";
        }
    }

    static Stream<Reference> references() {
        try (InputStream in = DecodedPixelsTest.class.getResourceAsStream("/dicom/reference/reference.tsv")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.startsWith("#") && !l.isBlank()).map(l -> l.split("\t"))
                    .map(f -> new Reference(f[0], Integer.parseInt(f[1]), f[2], f[3], f[4], f[5])).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("references")
    void decodesToTheReferencePixels(Reference ref) throws IOException {
        byte[] file = DicomCodecTest.bytes(ref.file());
        byte[] pixels;
        if (ref.kind().equals("native")) {
            byte[] frame = PixelFrames.nativeFrame(file, ref.frame());
            pixels = masked(frame, DicomCodec.parse(file));
        } else {
            pixels = DicomCodec.read(file, ref.frame(), Raster.MAX_PIXELS).render().rgb();
        }
        assertThat(sha256(pixels)).as(ref.note()).isEqualTo(ref.sha256());
        // and the image the store and viewer render is built from them
        DicomImage image = DicomCodec.read(file, ref.frame(), Raster.MAX_PIXELS);
        assertThat(image.render().width()).isEqualTo(image.width());
    }

    @Test
    void jpegLsMatchesItsUncompressedOriginalAndColourKeepsTheTopBits() throws IOException {
        DicomImage jls = DicomCodecTest.read("MR_small_jpeg_ls_lossless.dcm");
        assertThat(jls.storedValues()).containsExactly(DicomCodecTest.read("MR_small.dcm").storedValues());
        assertThat(jls.render().sameContent(DicomCodecTest.read("MR_small.dcm").render())).isTrue();
        // the 16- and 32-bit colour samples are the same picture at different depths: same 8-bit rendering
        byte[] rgb16 = DicomCodecTest.read("SC_rgb_rle_16bit.dcm").render().rgb();
        assertThat(DicomCodecTest.read("SC_rgb_16bit.dcm").render().rgb()).containsExactly(rgb16);
        assertThat(DicomCodecTest.read("SC_rgb_32bit.dcm").render().rgb()).containsExactly(
                DicomCodecTest.read("SC_rgb_rle_32bit.dcm").render().rgb());
        assertThat(DicomCodecTest.read("JLSL_RGB_ILV1.dcm").render().rgb()).containsExactly(
                DicomCodecTest.read("JLSL_RGB_ILV0.dcm").render().rgb());
    }

    @Test
    void rtDoseInRleHasTheDoseOfTheUncompressedObject() throws IOException {
        DicomImage rle = DicomCodecTest.read("rtdose_rle_1frame.dcm");
        DicomImage plain = DicomCodecTest.read("rtdose.dcm");
        assertThat(rle.bitsStored()).isEqualTo(32);
        assertThat(rle.storedValues()).containsExactly(plain.storedValues());
        assertThat(DicomCodec.read(DicomCodecTest.bytes("rtdose_rle.dcm"), 14, Raster.MAX_PIXELS).storedValues())
                .containsExactly(DicomCodec.read(DicomCodecTest.bytes("rtdose.dcm"), 14, Raster.MAX_PIXELS)
                        .storedValues());
    }

    @Test
    void jpegLsEncodesLosslesslyAndNearLosslesslyThroughCharLs() throws IOException {
        byte[] frame = PixelFrames.nativeFrame(DicomCodecTest.bytes("MR_small_jpeg_ls_lossless.dcm"), 0);
        byte[] lossless = CharLs.encodeFrame(frame, 64, 64, 16, 1, 0);
        assertThat(CharLs.decodeFrame(lossless).samples()).containsExactly(frame);
        CharLs.Frame near = CharLs.decodeFrame(CharLs.encodeFrame(frame, 64, 64, 16, 1, 3));
        assertThat(near.near()).isEqualTo(3);
        for (int i = 0; i < frame.length; i += 2) {
            int a = (frame[i] & 0xFF) | (frame[i + 1] & 0xFF) << 8;
            int b = (near.samples()[i] & 0xFF) | (near.samples()[i + 1] & 0xFF) << 8;
            assertThat(Math.abs(a - b)).isLessThanOrEqualTo(3);
        }
        assertThat(CharLs.libraryVersion()).startsWith("2.");
    }

    @Test
    void aCodestreamOfAnotherSizeThanTheHeaderSaysIsRefusedBeforeDecoding() throws IOException {
        byte[] frame = PixelFrames.nativeFrame(DicomCodecTest.bytes("MR_small_jpeg_ls_lossless.dcm"), 0);
        byte[] jls = CharLs.encodeFrame(frame, 64, 64, 16, 1, 0);
        assertThatThrownBy(() -> PixelFrames.decodeFrame(PixelFrames.JPEG_LS_LOSSLESS, jls,
                new PixelFrames.Layout(4096, 4096, 1, 16, 16, 0))).isInstanceOf(ImageDecodeException.class)
                .hasMessage("JPEG-LS frame is 64x64x1, the DICOM header says 4096x4096x1");
        byte[] jpeg = PixelFrames.nativeFrame(DicomCodecTest.bytes("JPEG-lossy.dcm"), 0);
        assertThat(jpeg).hasSize(256 * 1024 * 2);
        assertThatThrownBy(() -> PixelFrames.nativeFrame(DicomCodecTest.bytes("JPEG-lossy.dcm"), 1))
                .isInstanceOf(ImageDecodeException.class).hasMessageContaining("frame 1 does not exist");
    }

    @Test
    void aMissingCharLsIsNamedAsTheDebianPackageToInstall() {
        // what System.load says when the bridge is there but libcharls2 is not
        assertThat(CharLs.whyNotLoaded(new UnsatisfiedLinkError("/tmp/medjava_charls1.so: libcharls.so.2: cannot "
                + "open shared object file: No such file or directory"))).isEqualTo("JPEG-LS needs the CharLS "
                + "library libcharls.so.2 (Debian package libcharls2), which is not installed");
        assertThat(CharLs.unavailable()).isNull(); // here it is installed (bootstrap/install-deps.sh)
    }

    @Test
    void damagedCompressedFramesFailWithAClearMessage() {
        PixelFrames.Layout layout = new PixelFrames.Layout(64, 64, 1, 16, 16, 0);
        assertThatThrownBy(() -> PixelFrames.decodeFrame(PixelFrames.JPEG_LS_LOSSLESS, new byte[] {1, 2, 3}, layout))
                .isInstanceOf(ImageDecodeException.class).hasMessageStartingWith("JPEG-LS header unreadable");
        assertThatThrownBy(() -> PixelFrames.decodeFrame(PixelFrames.JPEG_EXTENDED, new byte[] {(byte) 0xFF,
            (byte) 0xD8, (byte) 0xFF}, layout)).isInstanceOf(ImageDecodeException.class)
                .hasMessageContaining("JPEG");
        assertThatThrownBy(() -> PixelFrames.decodeFrame(PixelFrames.RLE, new byte[64], layout))
                .isInstanceOf(ImageDecodeException.class).hasMessageContaining("RLE frame has 0 segments");
    }

    /** Every sample cut to its Bits Stored bits, as reference.tsv's "native" frames are. */
    private static byte[] masked(byte[] frame, com.pixelmed.dicom.AttributeList list) {
        PixelFrames.Layout layout = PixelFrames.Layout.of(list);
        int bytes = layout.bitsAllocated() / 8;
        long mask = layout.bitsStored() >= 32 ? 0xFFFFFFFFL : (1L << layout.bitsStored()) - 1;
        byte[] out = frame.clone();
        for (int i = 0; i < out.length; i += bytes) {
            long v = 0;
            for (int k = bytes - 1; k >= 0; k--) {
                v = v << 8 | (out[i + k] & 0xFF);
            }
            v &= mask;
            for (int k = 0; k < bytes; k++) {
                out[i + k] = (byte) (v >>> (8 * k));
            }
        }
        return out;
    }

    static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

}
