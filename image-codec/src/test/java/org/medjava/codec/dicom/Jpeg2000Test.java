package org.medjava.codec.dicom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.ImageDecodeException;
import org.medjava.codec.testsupport.Tools;

/**
 * JPEG 2000 (OpenJPEG) and HTJ2K (OpenJPH) frames decoded by image-codec's bridges, against codestreams made by the
 * libraries' own command-line encoders (opj_compress, ojph_compress: bootstrap/install-deps.sh --test installs them)
 * from synthetic images: lossless means every sample as it was, whatever the layers and the colour transform; lossy
 * means what the reference decoder of the same format makes; a header that disagrees with the DICOM one, and bytes
 * that are no codestream, are refused with a reason.
 */
class Jpeg2000Test {
    static final int W = 67;
    static final int H = 45;

    @TempDir
    static Path dir;
    static byte[] grey12;
    static byte[] grey16;
    static byte[] rgb;

    @BeforeAll
    static void images() throws Exception {
        for (String tool : new String[] {"opj_compress", "opj_decompress", "ojph_compress", "ojph_expand"}) {
            assertThat(Tools.onPath(tool)).as(tool + " (bootstrap/install-deps.sh --test installs it)").isTrue();
        }
        Random random = new Random(30);
        grey12 = samples(W * H, 12, random, false);
        grey16 = samples(W * H, 16, random, false);
        rgb = samples(W * H * 3, 8, random, true);
    }

    /** A smooth ramp with noise (what compresses like an image) over the whole range, the extremes included. */
    static byte[] samples(int count, int bits, Random random, boolean bytes) {
        int max = (1 << bits) - 1;
        byte[] out = new byte[count * (bytes ? 1 : 2)];
        for (int i = 0; i < count; i++) {
            int v = i == 0 ? 0 : i == 1 ? max : (int) ((long) i * max / count + random.nextInt(64) - 32);
            v = Math.max(0, Math.min(max, v));
            if (bytes) {
                out[i] = (byte) v;
            } else {
                out[2 * i] = (byte) v;
                out[2 * i + 1] = (byte) (v >> 8);
            }
        }
        return out;
    }

    /** A binary PGM (grey, little-endian words in, big-endian out as Netpbm wants) or PPM of 8-bit RGB. */
    static Path netpbm(String name, byte[] samples, int bits, boolean colour) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(((colour ? "P6" : "P5") + "\n" + W + " " + H + "\n" + ((1 << bits) - 1) + "\n")
                .getBytes(StandardCharsets.US_ASCII));
        if (bits > 8) {
            for (int i = 0; i < samples.length; i += 2) {
                out.write(samples[i + 1]);
                out.write(samples[i]);
            }
        } else {
            out.write(samples);
        }
        return Files.write(dir.resolve(name), out.toByteArray());
    }

    /** The samples of a PGM or PPM a decoder wrote, as the bridge returns them (little-endian words). */
    static byte[] readNetpbm(Path file) throws Exception {
        byte[] all = Files.readAllBytes(file);
        int at = 0;
        int fields = 0;
        int max = 0;
        while (fields < 4) { // magic, width, height, maxval, separated by whitespace and # comments
            while (Character.isWhitespace(all[at])) {
                at++;
            }
            if (all[at] == '#') {
                while (all[at] != '\n') {
                    at++;
                }
                continue;
            }
            int start = at;
            while (!Character.isWhitespace(all[at])) {
                at++;
            }
            if (fields == 3) {
                max = Integer.parseInt(new String(all, start, at - start, StandardCharsets.US_ASCII));
            }
            fields++;
        }
        byte[] body = Arrays.copyOfRange(all, at + 1, all.length);
        if (max > 255) {
            for (int i = 0; i < body.length; i += 2) {
                byte high = body[i];
                body[i] = body[i + 1];
                body[i + 1] = high;
            }
        }
        return body;
    }

    static byte[] encode(String name, Path image, String... tool) throws Exception {
        Path out = dir.resolve(name);
        String[] command = Arrays.copyOf(tool, tool.length + 4);
        System.arraycopy(new String[] {"-i", image.toString(), "-o", out.toString()}, 0, command, tool.length, 4);
        Tools.check(command);
        return Files.readAllBytes(out);
    }

    @Test
    void losslessJpeg2000Of12BitGreyIsExact() throws Exception {
        byte[] codestream = encode("g12.j2k", netpbm("g12.pgm", grey12, 12, false), "opj_compress");
        Jpeg2000.Frame frame = Jpeg2000.decodeFrame(Jpeg2000.LOSSLESS, codestream, W, H, 1);
        assertThat(frame.bits()).isEqualTo(12);
        assertThat(frame.samples()).isEqualTo(grey12);
    }

    @Test
    void losslessJpeg2000InColourWithTheReversibleTransformAndSixLayersIsExact() throws Exception {
        // YBR_RCT in DICOM terms: 5-3 reversible wavelet, the RCT, six quality layers the last of which is lossless
        byte[] codestream = encode("rgb.j2k", netpbm("rgb.ppm", rgb, 8, true), "opj_compress",
                "-mct", "1", "-r", "60,30,15,8,4,1");
        Jpeg2000.Frame frame = Jpeg2000.decodeFrame(Jpeg2000.LOSSLESS, codestream, W, H, 3);
        assertThat(frame.components()).isEqualTo(3);
        assertThat(frame.samples()).isEqualTo(rgb);
    }

    @Test
    void lossyJpeg2000IsWhatOpenJpegsOwnDecoderMakes() throws Exception {
        byte[] codestream = encode("lossy.j2k", netpbm("lossy.pgm", grey12, 12, false), "opj_compress",
                "-I", "-r", "20");
        Tools.check("opj_decompress", "-i", dir.resolve("lossy.j2k").toString(), "-o",
                dir.resolve("lossy-out.pgm").toString());
        byte[] reference = readNetpbm(dir.resolve("lossy-out.pgm"));
        Jpeg2000.Frame frame = Jpeg2000.decodeFrame(Jpeg2000.LOSSY, codestream, W, H, 1);
        assertThat(frame.samples()).isEqualTo(reference).isNotEqualTo(grey12);
    }

    @Test
    void losslessHtj2kOf16BitGreyIsExactAndOpenJpegAgrees() throws Exception {
        byte[] codestream = encode("g16.j2c", netpbm("g16.pgm", grey16, 16, false), "ojph_compress",
                "-reversible", "true", "-prog_order", "RPCL");
        Jpeg2000.Frame frame = Jpeg2000.decodeFrame(Jpeg2000.HTJ2K_RPCL_LOSSLESS, codestream, W, H, 1);
        assertThat(frame.bits()).isEqualTo(16);
        assertThat(frame.samples()).isEqualTo(grey16);
        // a second, independent HTJ2K decoder (OpenJPEG 2.5 reads Part 15 too) makes the same samples
        Tools.check("opj_decompress", "-i", dir.resolve("g16.j2c").toString(), "-o",
                dir.resolve("g16-opj.pgm").toString());
        assertThat(readNetpbm(dir.resolve("g16-opj.pgm"))).isEqualTo(grey16);
    }

    @Test
    void losslessHtj2kInColourWithTheColourTransformIsExact() throws Exception {
        byte[] codestream = encode("rgb.j2c", netpbm("rgb2.ppm", rgb, 8, true), "ojph_compress",
                "-reversible", "true", "-colour_trans", "true");
        Jpeg2000.Frame frame = Jpeg2000.decodeFrame(Jpeg2000.HTJ2K_LOSSLESS, codestream, W, H, 3);
        assertThat(frame.samples()).isEqualTo(rgb);
    }

    @Test
    void lossyHtj2kIsWhatOpenJphsOwnDecoderMakes() throws Exception {
        byte[] codestream = encode("lossy.j2c", netpbm("lossy2.pgm", grey12, 12, false), "ojph_compress",
                "-qstep", "0.02");
        Tools.check("ojph_expand", "-i", dir.resolve("lossy.j2c").toString(), "-o",
                dir.resolve("lossy2-out.pgm").toString());
        Jpeg2000.Frame frame = Jpeg2000.decodeFrame(Jpeg2000.HTJ2K, codestream, W, H, 1);
        assertThat(frame.samples()).isEqualTo(readNetpbm(dir.resolve("lossy2-out.pgm"))).isNotEqualTo(grey12);
    }

    @Test
    void aCodestreamThatIsNotWhatTheHeaderSaysOrNoCodestreamIsRefusedWithAReason() throws Exception {
        byte[] j2k = encode("g12b.j2k", netpbm("g12b.pgm", grey12, 12, false), "opj_compress");
        byte[] j2c = encode("g16b.j2c", netpbm("g16b.pgm", grey16, 16, false), "ojph_compress",
                "-reversible", "true");
        assertThatThrownBy(() -> Jpeg2000.decodeFrame(Jpeg2000.LOSSLESS, j2k, W + 1, H, 1))
                .isInstanceOf(ImageDecodeException.class)
                .hasMessage("JPEG 2000 frame is 67x45x1, the DICOM header says 68x45x1");
        assertThatThrownBy(() -> Jpeg2000.decodeFrame(Jpeg2000.HTJ2K_LOSSLESS, j2c, W, H, 3))
                .isInstanceOf(ImageDecodeException.class)
                .hasMessage("HTJ2K frame is 67x45x1, the DICOM header says 67x45x3");
        byte[] noise = new byte[4096];
        new Random(1).nextBytes(noise);
        for (String ts : new String[] {Jpeg2000.LOSSLESS, Jpeg2000.HTJ2K_LOSSLESS}) {
            assertThatThrownBy(() -> Jpeg2000.decodeFrame(ts, noise, W, H, 1))
                    .isInstanceOf(ImageDecodeException.class)
                    .hasMessageMatching("(JPEG 2000 header unreadable: |HTJ2K codestream is truncated, or not one: )\\S.*")
                    .hasMessageNotContaining("Exception");
        }
        byte[] noiseWithAnEnd = Arrays.copyOf(noise, noise.length + 2);
        noiseWithAnEnd[noise.length] = (byte) 0xFF;
        noiseWithAnEnd[noise.length + 1] = (byte) 0xD9;
        assertThatThrownBy(() -> Jpeg2000.decodeFrame(Jpeg2000.HTJ2K, noiseWithAnEnd, W, H, 1))
                .isInstanceOf(ImageDecodeException.class).hasMessageStartingWith("HTJ2K data could not be decoded: ");
        assertThatThrownBy(() -> Jpeg2000.decodeFrame(Jpeg2000.LOSSLESS, Arrays.copyOf(j2k, j2k.length / 2), W,
                H, 1)).isInstanceOf(ImageDecodeException.class);
        assertThatThrownBy(() -> Jpeg2000.decodeFrame(Jpeg2000.HTJ2K_LOSSLESS, Arrays.copyOf(j2c, j2c.length / 2),
                W, H, 1)).isInstanceOf(ImageDecodeException.class).hasMessageContaining("truncated");
        byte[] padded = Arrays.copyOf(j2c, j2c.length + 1); // a fragment's pad byte is not truncation
        assertThat(Jpeg2000.decodeFrame(Jpeg2000.HTJ2K_LOSSLESS, padded, W, H, 1).samples()).isEqualTo(grey16);
    }

    @Test
    void htj2kEncodedHereIsLosslessRpclAndReadTheSameByBothOtherDecoders() throws Exception {
        for (Object[] c : new Object[][] {{grey16, 16, 1, "h16"}, {grey12, 12, 1, "h12"}, {rgb, 8, 3, "hrgb"}}) {
            byte[] samples = (byte[]) c[0];
            int bits = (int) c[1];
            int components = (int) c[2];
            byte[] codestream = Jpeg2000.encodeHtj2k(samples, W, H, bits, components, false);
            assertThat(Jpeg2000.decodeFrame(Jpeg2000.HTJ2K_RPCL_LOSSLESS, codestream, W, H, components).samples())
                    .as("%s decoded here", c[3]).isEqualTo(samples);
            Path file = Files.write(dir.resolve(c[3] + ".j2c"), codestream);
            assertDecodedTo(samples, "ojph_expand", file, components);
            assertDecodedTo(samples, "opj_decompress", file, components);
            assertThat(Tools.check("opj_dump", "-i", file.toString())).as("RPCL progression")
                    .contains("prg=0x2"); // OpenJPEG's number for RPCL
        }
        byte[] signed = signed12();
        byte[] codestream = Jpeg2000.encodeHtj2k(signed, W, H, 12, 1, true);
        Jpeg2000.Frame back = Jpeg2000.decodeFrame(Jpeg2000.HTJ2K_RPCL_LOSSLESS, codestream, W, H, 1);
        assertThat(back.signed()).isTrue();
        assertThat(back.samples()).isEqualTo(signed);
        assertThatThrownBy(() -> Jpeg2000.encodeHtj2k(new byte[10], W, H, 8, 1, false))
                .isInstanceOf(ImageDecodeException.class).hasMessageContaining("do not match");
    }

    /**
     * JPEG 2000 written here (OpenJPEG): lossless codestreams decode to every sample, here and in opj_decompress, for
     * 16-, 12- and 8-bit grey, signed 12-bit and RGB, and an image too small for the usual five levels; lossy ones
     * are near the ratio asked and close to the samples.
     */
    @Test
    void jpeg2000EncodedHereIsExactWhenLosslessAndNearItsRatioWhenNot() throws Exception {
        for (Object[] c : new Object[][] {{grey16, 16, 1, "j16"}, {grey12, 12, 1, "j12"}, {rgb, 8, 3, "jrgb"}}) {
            byte[] samples = (byte[]) c[0];
            int bits = (int) c[1];
            int components = (int) c[2];
            byte[] codestream = Jpeg2000.encode(samples, W, H, bits, components, false, true, 0);
            assertThat(Jpeg2000.decodeFrame(Jpeg2000.LOSSLESS, codestream, W, H, components).samples())
                    .as("%s decoded here", c[3]).isEqualTo(samples);
            assertDecodedTo(samples, "opj_decompress", Files.write(dir.resolve(c[3] + ".j2k"), codestream),
                    components);
        }
        byte[] signed = signed12();
        Jpeg2000.Frame back = Jpeg2000.decodeFrame(Jpeg2000.LOSSLESS,
                Jpeg2000.encode(signed, W, H, 12, 1, true, true, 0), W, H, 1);
        assertThat(back.signed()).isTrue();
        assertThat(back.samples()).isEqualTo(signed);
        byte[] tiny = {1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0};
        assertThat(Jpeg2000.decodeFrame(Jpeg2000.LOSSLESS, Jpeg2000.encode(tiny, 3, 2, 16, 1, false, true, 0), 3, 2,
                1).samples()).isEqualTo(tiny);

        byte[] lossy = Jpeg2000.encode(grey16, W, H, 16, 1, false, false, 10);
        assertThat(lossy.length).as("near 10:1").isBetween(grey16.length / 14, grey16.length / 7);
        byte[] decoded = Jpeg2000.decodeFrame(Jpeg2000.LOSSY, lossy, W, H, 1).samples();
        double error = 0;
        for (int i = 0; i < decoded.length; i += 2) {
            double d = (decoded[i] & 0xFF | (decoded[i + 1] & 0xFF) << 8)
                    - (grey16[i] & 0xFF | (grey16[i + 1] & 0xFF) << 8);
            error += d * d;
        }
        double psnr = 10 * Math.log10(65535.0 * 65535.0 / (error / (W * H)));
        assertThat(psnr).as("PSNR of the 10:1 16-bit image").isGreaterThan(40);
        assertThatThrownBy(() -> Jpeg2000.encode(new byte[10], W, H, 8, 1, false, true, 0))
                .isInstanceOf(ImageDecodeException.class).hasMessageContaining("do not match");
    }

    /** -2048..2047 in 12 bits, a ramp, two's complement in 16-bit little-endian samples. */
    private static byte[] signed12() {
        byte[] signed = new byte[2 * W * H];
        for (int i = 0; i < W * H; i++) {
            int v = (i * 4096 / (W * H)) - 2048;
            signed[2 * i] = (byte) v;
            signed[2 * i + 1] = (byte) (v >> 8);
        }
        return signed;
    }

    /** {@code tool} (ojph_expand, opj_decompress) decodes the codestream {@code file} to {@code samples}. */
    private static void assertDecodedTo(byte[] samples, String tool, Path file, int components) throws Exception {
        Path out = dir.resolve(file.getFileName() + "-" + tool + (components == 3 ? ".ppm" : ".pgm"));
        Tools.check(tool, "-i", file.toString(), "-o", out.toString());
        assertThat(readNetpbm(out)).as("%s by %s", file.getFileName(), tool).isEqualTo(samples);
    }

    /** A Part 10 object around one codestream, written by pydicom (an independent writer). */
    static byte[] part10(String name, String ts, byte[] codestream, int samples, String photometric, int bits)
            throws Exception {
        String python = Tools.python("pydicom");
        assertThat(python).as("python3 with pydicom (bootstrap/install-deps.sh --test installs it)").isNotNull();
        Path stream = Files.write(dir.resolve(name + ".codestream"), codestream);
        Path out = dir.resolve(name + ".dcm");
        Tools.check(python, "-c", String.join("\n",
                "import sys",
                "from pydicom.dataset import Dataset, FileMetaDataset",
                "from pydicom.encaps import encapsulate",
                "from pydicom.uid import generate_uid",
                "ts, stream, out, rows, cols, spp, pi, bits = sys.argv[1:]",
                "from pydicom._uid_dict import UID_dictionary", // pydicom 2.3 predates the HTJ2K syntaxes
                "UID_dictionary.setdefault(ts, ('HTJ2K', 'Transfer Syntax', '', '', 'HTJ2K'))",
                "meta = FileMetaDataset()",
                "meta.TransferSyntaxUID = ts",
                "meta.MediaStorageSOPClassUID = '1.2.840.10008.5.1.4.1.1.7'",
                "meta.MediaStorageSOPInstanceUID = generate_uid()",
                "ds = Dataset()",
                "ds.file_meta = meta",
                "ds.is_little_endian = True",
                "ds.is_implicit_VR = False",
                "ds.SOPClassUID = meta.MediaStorageSOPClassUID",
                "ds.SOPInstanceUID = meta.MediaStorageSOPInstanceUID",
                "ds.StudyInstanceUID = generate_uid()",
                "ds.SeriesInstanceUID = generate_uid()",
                "ds.PatientID = 'J2K-1'",
                "ds.Modality = 'OT'",
                "ds.Rows, ds.Columns, ds.SamplesPerPixel = int(rows), int(cols), int(spp)",
                "ds.PhotometricInterpretation = pi",
                "ds.BitsAllocated = 8 if int(bits) <= 8 else 16",
                "ds.BitsStored, ds.HighBit, ds.PixelRepresentation = int(bits), int(bits) - 1, 0",
                "if int(spp) > 1: ds.PlanarConfiguration = 0",
                "ds.PixelData = encapsulate([open(stream, 'rb').read()])",
                "ds['PixelData'].VR = 'OB'",
                "ds['PixelData'].is_undefined_length = True",
                "ds.save_as(out, write_like_original=False)"),
                ts, stream.toString(), out.toString(), "" + H, "" + W, "" + samples, photometric, "" + bits);
        return Files.readAllBytes(out);
    }

    @Test
    void aYbrRctObjectOfSixLayersIsReadAndDecompressedWithoutAChangedPixel() throws Exception {
        // the kind of object JJ2000 got wrong (issue 34: 7 % of the pixels changed, up to 108)
        byte[] codestream = encode("rct.j2k", netpbm("rct.ppm", rgb, 8, true), "opj_compress",
                "-mct", "1", "-r", "60,30,15,8,4,1");
        byte[] file = part10("rct", Jpeg2000.LOSSLESS, codestream, 3, "YBR_RCT", 8);
        assertThat(DicomCodec.read(file, 0, org.medjava.filter.Raster.MAX_PIXELS).render().rgb()).isEqualTo(rgb);
        com.pixelmed.dicom.AttributeList list = DicomCodec.parse(file);
        PixelFrames.decompress(list, Jpeg2000.LOSSLESS);
        assertThat(list.get(com.pixelmed.dicom.TagFromName.PhotometricInterpretation).getSingleStringValueOrNull())
                .isEqualTo("RGB");
        assertThat(list.get(com.pixelmed.dicom.TagFromName.PixelData).getByteValues()).isEqualTo(rgb);
    }

    @Test
    void anHtj2kObjectIsReadWithoutAChangedValue() throws Exception {
        byte[] codestream = encode("ct.j2c", netpbm("ct.pgm", grey16, 16, false), "ojph_compress",
                "-reversible", "true", "-prog_order", "RPCL");
        byte[] file = part10("htj2k", Jpeg2000.HTJ2K_RPCL_LOSSLESS, codestream, 1, "MONOCHROME2", 16);
        int[] values = DicomCodec.read(file, 0, org.medjava.filter.Raster.MAX_PIXELS).storedValues();
        for (int i = 0; i < W * H; i++) {
            assertThat(values[i]).as("value %d", i)
                    .isEqualTo((grey16[2 * i] & 0xFF) | (grey16[2 * i + 1] & 0xFF) << 8);
        }
    }

    @Test
    void theLibrariesInUseAreNamed() throws Exception {
        assertThat(Jpeg2000.unavailable(Jpeg2000.LOSSLESS)).isNull();
        assertThat(Jpeg2000.unavailable(Jpeg2000.HTJ2K)).isNull();
        assertThat(Jpeg2000.libraryVersion(Jpeg2000.LOSSY)).startsWith("OpenJPEG 2.");
        assertThat(Jpeg2000.libraryVersion(Jpeg2000.HTJ2K_LOSSLESS)).isEqualTo("OpenJPH 0.9.0");
        assertThat(NativeBridge.whyNotLoaded(new NativeBridge.Spec("libmedjava_openjph.so", "HTJ2K", "OpenJPH",
                "libopenjph.so.0.9", "libopenjph0.9", "libopenjph-dev"), new UnsatisfiedLinkError(
                "/tmp/libmedjava_openjph1.so: libopenjph.so.0.9: cannot open shared object file")))
                .isEqualTo("HTJ2K needs the OpenJPH library libopenjph.so.0.9 (Debian package libopenjph0.9), "
                        + "which is not installed");
    }
}
