package org.medjava.store.core.transcode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.TagFromName;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.medjava.filter.testkit.ByteSearch;
import org.medjava.filter.testkit.LyingFrameHeader;
import org.medjava.store.core.ingest.Part10File;
import org.medjava.store.core.testsupport.DecodedPixels;
import org.medjava.store.core.testsupport.PixelData;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.Samples;

/**
 * {@link Transcoder} against references nobody here wrote: the original uncompressed pixels of the lossless samples
 * (MR_small.dcm is what MR_small_RLE, _jp2klossless and DCMTK's JPEG lossless encodings of it hold), DCMTK's own
 * decompression (dcmdrle, dcmdjpeg), and, for lossy data, what PixelMed decodes from the stored object.
 */
class TranscoderTest {

    private static final String ELE = TransferSyntaxes.EXPLICIT_LE;
    private static final String ILE = TransferSyntaxes.IMPLICIT_LE;

    @TempDir
    Path dir;

    /** The object converted to {@code to}, written as a Part 10 file. */
    private Path convert(Path stored, String to) throws Exception {
        Path out = dir.resolve(stored.getFileName() + "-" + to + ".dcm");
        return Files.write(out, Transcoder.part10(stored, syntaxOf(stored), to, "TEST"));
    }

    private static String syntaxOf(Path file) throws Exception {
        return Part10File.read(file).transferSyntaxUid();
    }

    /** A sample compressed by a DCMTK tool ({@code dcmcjpeg} with its options). */
    private Path dcmtk(String tool, String sample, String... options) throws Exception {
        Path out = dir.resolve(sample + "-" + tool + String.join("", options) + ".dcm");
        java.util.List<Object> args = new java.util.ArrayList<>(java.util.List.of((Object[]) options));
        args.add(Samples.dicom(sample));
        args.add(out);
        Command.run(Command.of(tool, args.toArray())).assertOk();
        return out;
    }

    private Path dcmtkDecompressed(String tool, Path compressed) throws Exception {
        Path out = dir.resolve(compressed.getFileName() + "-" + tool + ".dcm");
        Command.run(Command.of(tool, compressed, out)).assertOk();
        return out;
    }

    private static AttributeList header(Path file) throws Exception {
        AttributeList list = new AttributeList();
        list.read(file.toString(), TagFromName.PixelData);
        return list;
    }

    private static String value(Path file, com.pixelmed.dicom.AttributeTag tag) throws Exception {
        return Attribute.getSingleStringValueOrEmptyString(header(file), tag).trim();
    }

    @Test
    void losslessSyntaxesDecompressToTheOriginalPixelsAndToWhatDcmtkDecompresses() throws Exception {
        byte[] original = PixelData.of(Samples.dicom("MR_small.dcm"));
        Path rle = Samples.dicom("MR_small_RLE.dcm");
        Path jpegLossless = dcmtk("dcmcjpeg", "MR_small.dcm", "+el"); // process 14, 1.2.840.10008.1.2.4.57
        Path jpegLosslessSv1 = dcmtk("dcmcjpeg", "MR_small.dcm", "+e1"); // 1.2.840.10008.1.2.4.70
        assertThat(syntaxOf(jpegLossless)).isEqualTo("1.2.840.10008.1.2.4.57");
        assertThat(syntaxOf(jpegLosslessSv1)).isEqualTo("1.2.840.10008.1.2.4.70");

        for (Path stored : new Path[] {rle, jpegLossless, jpegLosslessSv1, Samples.dicom("MR_small_jp2klossless.dcm")}) {
            for (String to : new String[] {ELE, ILE}) {
                Path converted = convert(stored, to);
                assertThat(syntaxOf(converted)).isEqualTo(to);
                assertThat(PixelData.of(converted)).as(stored + " to " + to).isEqualTo(original);
                assertThat(header(converted).get(TagFromName.LossyImageCompression)).as(stored.toString()).isNull();
            }
        }
        assertThat(PixelData.of(dcmtkDecompressed("dcmdrle", rle))).isEqualTo(original);
        assertThat(PixelData.of(dcmtkDecompressed("dcmdjpeg", jpegLossless))).isEqualTo(original);
        assertThat(PixelData.of(dcmtkDecompressed("dcmdjpeg", jpegLosslessSv1))).isEqualTo(original);
    }

    @Test
    void colourRleDecompressesAsDcmtkDoes() throws Exception {
        Path stored = Samples.dicom("SC_rgb_rle.dcm");
        Path converted = convert(stored, ELE);
        Path dcmtk = dcmtkDecompressed("dcmdrle", stored);

        assertThat(value(converted, TagFromName.PhotometricInterpretation)).isEqualTo("RGB");
        assertThat(value(converted, TagFromName.PlanarConfiguration)).isEqualTo(value(dcmtk,
                TagFromName.PlanarConfiguration));
        assertThat(PixelData.of(converted)).isEqualTo(PixelData.of(dcmtk));
        assertThat(DecodedPixels.of(converted)).isEqualTo(DecodedPixels.of(stored));
    }

    @Test
    void lossyJpegBecomesRgbKeepsItsLossyMarkAndDecodesAsTheStoredObjectDoes() throws Exception {
        Path ybrFull = Samples.dicom("SC_rgb_jpeg_dcmtk.dcm");
        Path ybr422 = dcmtk("dcmcjpeg", "examples_rgb_color.dcm", "+eb", "+s2"); // baseline, 4:2:2
        assertThat(value(ybr422, TagFromName.PhotometricInterpretation)).isEqualTo("YBR_FULL_422");

        for (Path stored : new Path[] {ybrFull, ybr422}) {
            Path converted = convert(stored, ELE);
            AttributeList h = header(converted);
            assertThat(Attribute.getSingleStringValueOrEmptyString(h, TagFromName.PhotometricInterpretation))
                    .as(stored.toString()).isEqualTo("RGB");
            assertThat(Attribute.getSingleIntegerValueOrDefault(h, TagFromName.PlanarConfiguration, -1)).isZero();
            assertThat(Attribute.getSingleStringValueOrEmptyString(h, TagFromName.LossyImageCompression))
                    .isEqualTo("01");
            assertThat(Attribute.getDelimitedStringValuesOrEmptyString(h, TagFromName.LossyImageCompressionMethod))
                    .contains("ISO_10918_1");
            assertThat(PixelData.of(converted)).hasSize(3 * Attribute.getSingleIntegerValueOrDefault(h,
                    TagFromName.Rows, 0) * Attribute.getSingleIntegerValueOrDefault(h, TagFromName.Columns, 0));
            assertThat(DecodedPixels.of(converted)).as(stored.toString()).isEqualTo(DecodedPixels.of(stored));
        }
    }

    @Test
    void lossyJpeg2000KeepsItsLossyMark() throws Exception {
        Path stored = Samples.dicom("JPEG2000.dcm");
        Path converted = convert(stored, ELE);
        assertThat(value(converted, TagFromName.LossyImageCompression)).isEqualTo("01");
        assertThat(DecodedPixels.of(converted)).isEqualTo(DecodedPixels.of(stored));
    }

    /** PixelMed decompresses every frame on read: a frame header claiming more than Rows x Columns is refused first. */
    @ParameterizedTest
    @CsvSource({"JPEG2000.dcm, JPEG2000_SIZ", "SC_rgb_jpeg_dcmtk.dcm, JPEG_SOF0"})
    void aFrameHeaderClaimingMoreThanTheDicomHeaderIsRefusedBeforeDecompressing(String sample,
            LyingFrameHeader header) throws Exception {
        byte[] file = header.claim(Files.readAllBytes(Samples.dicom(sample)), 20000);
        Path hostile = Files.write(dir.resolve("claims-20000-" + sample), file);
        assertThatThrownBy(() -> convert(hostile, ELE)).isInstanceOf(NotTranscodable.class)
                .hasMessageContaining("is coded as 20000x20000, the DICOM header says");
    }

    @Test
    void uncompressedSyntaxesConvertIntoEachOther() throws Exception {
        byte[] original = PixelData.of(Samples.dicom("MR_small.dcm"));
        for (String sample : new String[] {"MR_small_bigendian.dcm", "MR_small_implicit.dcm", "MR_small.dcm"}) {
            for (String to : new String[] {ELE, ILE, TransferSyntaxes.EXPLICIT_BE}) {
                Path converted = convert(Samples.dicom(sample), to);
                assertThat(syntaxOf(converted)).isEqualTo(to);
                assertThat(PixelData.of(converted)).as(sample + " to " + to).isEqualTo(original);
            }
        }
        Path deflated = Samples.dicom("image_dfl.dcm");
        assertThat(DecodedPixels.of(convert(deflated, ELE))).isEqualTo(DecodedPixels.of(deflated));
    }

    /** A sample of image-codec's test corpus (JPEG-LS colour, RLE of 16/32-bit colour and dose). */
    private static Path codecSample(String name) {
        return Path.of(System.getProperty("medjava.root", "..")).resolve("image-codec/src/test/resources/dicom")
                .resolve(name);
    }

    @Test
    void jpegLsDecompressesToTheOriginalPixelsAndToWhatDcmtkDecompresses() throws Exception {
        Path lossless = Samples.dicom("MR_small_jpeg_ls_lossless.dcm");
        Path converted = convert(lossless, ELE);
        assertThat(PixelData.of(converted)).isEqualTo(PixelData.of(Samples.dicom("MR_small.dcm")));
        assertThat(header(converted).get(TagFromName.LossyImageCompression)).isNull();
        for (String name : new String[] {"JLSL_RGB_ILV0.dcm", "JLSL_RGB_ILV1.dcm", "JLSN_RGB_ILV0.dcm",
            "emri_small_jpeg_ls_lossless.dcm"}) {
            Path stored = codecSample(name);
            Path ours = convert(stored, ILE);
            assertThat(PixelData.of(ours)).as(name).isEqualTo(PixelData.of(dcmtkDecompressed("dcmdjpls", stored)));
            assertThat(DecodedPixels.of(ours)).as(name).isEqualTo(DecodedPixels.of(stored));
        }
        Path near = convert(codecSample("JLSN_RGB_ILV0.dcm"), ELE);
        assertThat(value(near, TagFromName.LossyImageCompression)).isEqualTo("01");
        assertThat(value(near, TagFromName.LossyImageCompressionMethod)).isEqualTo("ISO_14495_1");
    }

    @Test
    void twelveBitJpegDecompressesExactlyAsDcmtkDoesAndStaysMarkedLossy() throws Exception {
        Path stored = Samples.dicom("JPEG-lossy.dcm"); // JPEG Extended, 12 bits stored
        Path converted = convert(stored, ELE);
        assertThat(PixelData.of(converted)).isEqualTo(PixelData.of(dcmtkDecompressed("dcmdjpeg", stored)));
        assertThat(value(converted, TagFromName.LossyImageCompression)).isEqualTo("01");
        assertThat(value(converted, TagFromName.LossyImageCompressionMethod)).contains("ISO_10918_1");
    }

    @Test
    void rleOfWideColourAndDoseDecompressesAsDcmtkDoes() throws Exception {
        for (String name : new String[] {"SC_rgb_rle_16bit.dcm", "SC_rgb_rle_32bit.dcm", "rtdose_rle.dcm"}) {
            Path stored = codecSample(name);
            Path converted = convert(stored, ELE);
            assertThat(PixelData.of(converted)).as(name).isEqualTo(PixelData.of(dcmtkDecompressed("dcmdrle", stored)));
        }
    }

    /**
     * A damaged code stream is a refusal with the decoder's reason, not a 500. Here the COD segment announces EPH
     * markers that the packets do not have; OpenJPEG fails the tile (JJ2000, before it, threw java.lang.Error).
     */
    @Test
    void aDamagedJpeg2000CodeStreamIsRefusedWithTheDecodersReason() throws Exception {
        byte[] file = Files.readAllBytes(Samples.dicom("JPEG2000.dcm"));
        int cod = ByteSearch.indexOf(file, new byte[] {(byte) 0xFF, 0x52}); // COD: marker, Lcod (2 bytes), Scod
        file[cod + 4] |= 0x04; // Scod bit 2: an EPH marker ends every packet header
        Path damaged = Files.write(dir.resolve("JPEG2000-eph.dcm"), file);
        assertThatThrownBy(() -> convert(damaged, ELE)).isInstanceOf(NotTranscodable.class)
                .hasMessageContaining("could not be decoded").hasMessageContaining("Failed to decode tile");
    }

    @Test
    void whatCannotBeDecodedHereIsRefusedWithTheReason() {
        assertThatThrownBy(() -> convert(Samples.dicom("image_dfl.dcm"), TransferSyntaxes.J2K))
                .isInstanceOf(NotTranscodable.class).hasMessageContaining("only when asked");
        assertThatThrownBy(() -> Transcoder.part10(Samples.dicom("MR_small.dcm"), ELE, TransferSyntaxes.J2K, "T", true))
                .isInstanceOf(NotTranscodable.class).hasMessageContaining("8-bit");
        assertThatThrownBy(() -> convert(Samples.dicom("MR_small.dcm"), TransferSyntaxes.JPEG_BASELINE))
                .isInstanceOf(NotTranscodable.class).hasMessageContaining("8-bit");
        assertThatThrownBy(() -> convert(Samples.dicom("MR_small.dcm"), "1.2.840.10008.1.2.4.100")) // MPEG2
                .isInstanceOf(NotTranscodable.class).hasMessageContaining("does not encode");
        assertThatThrownBy(() -> Transcoder.part10(Samples.dicom("examples_palette.dcm"), ELE,
                TransferSyntaxes.JPEG_LS_NEAR_LOSSLESS, "T", true))
                .isInstanceOf(NotTranscodable.class).hasMessageContaining("palette");
        assertThatThrownBy(() -> convert(Samples.dicom("rtdose.dcm"), TransferSyntaxes.RLE))
                .isInstanceOf(NotTranscodable.class).hasMessageContaining("32-bit");
    }

    /**
     * Every lossless encoder (HTJ2K included), from uncompressed and compressed sources, grey 16-bit (signed and not), 8-bit grey,
     * RGB and palette colour, single and multi-frame: the encoded object decodes (with PixelMed and, where Debian's
     * DCMTK has the decoder, with dcmdrle and dcmdjpeg) to exactly the source's decoded pixels, and converts back.
     */
    @Test
    void losslessEncodingsDecodeToTheSourcePixelsHereAndInDcmtk() throws Exception {
        String[] samples = {"MR_small.dcm", "CT_small.dcm", "image_dfl.dcm", "examples_rgb_color.dcm",
            "examples_palette.dcm", "MR_small_jp2klossless.dcm", "MR_small_jpeg_ls_lossless.dcm", "SC_rgb_rle.dcm"};
        for (String sample : samples) {
            Path source = Samples.dicom(sample);
            byte[] expected = PixelData.of(convert(source, ELE));
            java.util.List<String> targets = new java.util.ArrayList<>(TransferSyntaxes.LOSSLESS_ENCODED);
            targets.addAll(TransferSyntaxes.HTJ2K_ENCODED);
            for (String to : targets) {
                if (to.equals(syntaxOf(source))) {
                    continue;
                }
                Path encoded = convert(source, to);
                String what = sample + " in " + TransferSyntaxes.name(to);
                assertThat(syntaxOf(encoded)).as(what).isEqualTo(to);
                Command.run(Command.of("dcmdump", "-q", "-E", encoded)).assertOk();
                assertThat(PixelData.of(convert(encoded, ELE))).as(what).isEqualTo(expected);
                String dcmtk = switch (to) {
                    case TransferSyntaxes.RLE -> "dcmdrle";
                    case TransferSyntaxes.JPEG_LOSSLESS_SV1 -> "dcmdjpeg";
                    case TransferSyntaxes.JPEG_LS_LOSSLESS -> "dcmdjpls";
                    default -> null; // no JPEG 2000 or HTJ2K decoder in Debian's DCMTK
                };
                if (dcmtk != null) {
                    assertThat(PixelData.of(dcmtkDecompressed(dcmtk, encoded))).as(what + ", " + dcmtk)
                            .isEqualTo(expected);
                }
                assertThat(value(encoded, TagFromName.LossyImageCompression)).as(what)
                        .isEqualTo(value(convert(source, ELE), TagFromName.LossyImageCompression));
            }
            Path deflated = convert(source, TransferSyntaxes.DEFLATED_LE);
            assertThat(PixelData.of(convert(deflated, ELE))).as(sample + " deflated").isEqualTo(expected);
        }
        Path multiFrame = Samples.dicom("examples_ybr_color.dcm"); // 30 frames of JPEG Baseline, one fragment each
        Path rle = convert(multiFrame, TransferSyntaxes.RLE);
        assertThat(PixelData.of(dcmtkDecompressed("dcmdrle", rle))).isEqualTo(PixelData.of(convert(multiFrame, ELE)));
    }

    /** HTJ2K written here is read to the same samples by another HTJ2K decoder, OpenJPEG's opj_decompress. */
    @Test
    void htj2kWrittenHereIsReadTheSameByOpenJpeg() throws Exception {
        for (String sample : new String[] {"MR_small.dcm", "CT_small.dcm"}) { // one 16-bit grey frame each
            Path source = Samples.dicom(sample);
            AttributeList list = new AttributeList();
            list.setDecompressPixelData(false);
            try (var in = org.medjava.codec.dicom.PixelMedInput.open(Files.newInputStream(
                    convert(source, TransferSyntaxes.HTJ2K_RPCL_LOSSLESS)))) {
                list.read(in);
            }
            byte[] codestream = ((com.pixelmed.dicom.OtherByteAttributeMultipleCompressedFrames) list.getPixelData())
                    .getByteValuesForSelectedFrame(0);
            Path j2c = Files.write(dir.resolve(sample + ".j2c"), codestream);
            Path raw = dir.resolve(sample + ".rawl"); // little-endian samples, as native Pixel Data holds them
            Command.run(java.util.List.of("opj_decompress", "-i", j2c.toString(), "-o", raw.toString())).assertOk();
            assertThat(Files.readAllBytes(raw)).as(sample).isEqualTo(PixelData.of(convert(source, ELE)));
        }
    }

    /**
     * Lossy encodings happen only when asked for, are marked (PS3.3 C.7.6.1.1.5: "01", ratio, method), stay close
     * to the source (PSNR over 30 dB at the settings used) and decode in DCMTK where it has the decoder.
     */
    @Test
    void lossyEncodingsAreMarkedAndCloseToTheSource() throws Exception {
        record Case(String sample, String to, String method) {
        }
        for (Case c : new Case[] {new Case("examples_rgb_color.dcm", TransferSyntaxes.JPEG_BASELINE, "ISO_10918_1"),
            new Case("image_dfl.dcm", TransferSyntaxes.JPEG_BASELINE, "ISO_10918_1"),
            new Case("image_dfl.dcm", TransferSyntaxes.J2K, "ISO_15444_1"),
            new Case("JPEG-lossy.dcm", TransferSyntaxes.JPEG_LS_NEAR_LOSSLESS, "ISO_10918_1\\ISO_14495_1"), // 12 bits
            new Case("examples_rgb_color.dcm", TransferSyntaxes.J2K, "ISO_15444_1"),
            new Case("CT_small.dcm", TransferSyntaxes.JPEG_LS_NEAR_LOSSLESS, "ISO_14495_1"),
            new Case("examples_rgb_color.dcm", TransferSyntaxes.JPEG_LS_NEAR_LOSSLESS, "ISO_14495_1")}) {
            Path source = Samples.dicom(c.sample());
            Path encoded = dir.resolve(c.sample() + "-lossy-" + c.to() + ".dcm");
            Files.write(encoded, Transcoder.part10(source, syntaxOf(source), c.to(), "TEST", true));
            AttributeList h = header(encoded);
            String what = c.sample() + " in " + TransferSyntaxes.name(c.to());
            assertThat(value(encoded, TagFromName.LossyImageCompression)).as(what).isEqualTo("01");
            assertThat(Attribute.getDelimitedStringValuesOrEmptyString(h, TagFromName.LossyImageCompressionMethod))
                    .as(what).isEqualTo(c.method());
            double ratio = Attribute.getSingleDoubleValueOrDefault(h, TagFromName.LossyImageCompressionRatio, 0);
            assertThat(ratio).as(what).isGreaterThan(1.5);
            double psnr = Psnr.of(source, encoded);
            assertThat(psnr).as(what + ", ratio " + ratio).isGreaterThan(30);
            if (c.to().equals(TransferSyntaxes.JPEG_LS_NEAR_LOSSLESS)) {
                assertThat(Psnr.maxError(source, encoded)).as(what).isLessThanOrEqualTo(Transcoder.JPEG_LS_NEAR);
            }
            String decoder = c.to().equals(TransferSyntaxes.JPEG_BASELINE) ? "dcmdjpeg"
                    : c.to().equals(TransferSyntaxes.JPEG_LS_NEAR_LOSSLESS) ? "dcmdjpls" : null;
            if (decoder != null) {
                assertThat(Psnr.of(source, dcmtkDecompressed(decoder, encoded))).as(what + ", " + decoder)
                        .isGreaterThan(30);
            }
        }
    }

    @Test
    void theDataSetAloneIsWhatThePart10FileHoldsAfterItsMetaInformation() throws Exception {
        Path stored = Samples.dicom("MR_small_RLE.dcm");
        Path part10 = convert(stored, ILE);
        byte[] all = Files.readAllBytes(part10);
        byte[] dataSet = java.util.Arrays.copyOfRange(all, (int) Part10File.read(part10).dataSetOffset(), all.length);
        assertThat(Transcoder.dataSet(stored, syntaxOf(stored), ILE)).isEqualTo(dataSet);
    }
}
