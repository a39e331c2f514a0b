package org.medjava.codec.dicom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.SequenceAttribute;
import com.pixelmed.dicom.TagFromName;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.testsupport.Tools;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.ImageDecodeException;
import org.medjava.codec.ImageFormat;
import org.medjava.filter.Raster;
import org.medjava.filter.testkit.DcmtkTools;

/**
 * Derived Secondary Capture objects: pixels come back exactly through {@link DicomCodec}, patient and study are kept,
 * UIDs are new and ours, the source is referenced. Sources are the sample files of src/test/resources/dicom/.
 */
class DerivedDicomTest {
    private static final String UID_2_25 = "2\\.25\\.(0|[1-9][0-9]*)";

    @TempDir
    Path dir;

    /** Every pixel grey, odd size (odd pixel data length needs padding), all 256 values. */
    static Raster greyRaster() {
        Raster r = new Raster(17, 15);
        for (int y = 0; y < r.height(); y++) {
            for (int x = 0; x < r.width(); x++) {
                int v = (y * r.width() + x) % 256;
                r.setRgb(x, y, v << 16 | v << 8 | v);
            }
        }
        return r;
    }

    static Raster colourRaster() {
        Raster r = new Raster(9, 7);
        for (int y = 0; y < r.height(); y++) {
            for (int x = 0; x < r.width(); x++) {
                r.setRgb(x, y, (x * 28) << 16 | (y * 36) << 8 | (255 - x * y * 5));
            }
        }
        return r;
    }

    static AttributeList parse(byte[] file) throws Exception {
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        try (DicomInputStream in = new DicomInputStream(new ByteArrayInputStream(file))) {
            list.read(in);
        }
        return list;
    }

    static String str(AttributeList list, com.pixelmed.dicom.AttributeTag tag) {
        return DicomCodec.string(list, tag);
    }

    static AttributeList sourceItem(AttributeList list) {
        SequenceAttribute seq = (SequenceAttribute) list.get(TagFromName.SourceImageSequence);
        assertThat(seq).isNotNull();
        assertThat(seq.getNumberOfItems()).isEqualTo(1);
        return seq.getItem(0).getAttributeList();
    }

    // ---- pixels ----

    @Test
    void greyRasterIsWrittenAsMonochrome2AndReadsBackExactly() throws Exception {
        Raster raster = greyRaster();
        byte[] file = DerivedDicom.from(DicomCodecTest.bytes("MR_small.dcm")).toBytes(raster);

        DicomImage image = DicomCodec.read(file, 0, Raster.MAX_PIXELS);
        assertThat(image.photometricInterpretation()).isEqualTo("MONOCHROME2");
        assertThat(image.isGrey()).isTrue();
        assertThat(image.windowPresets()).containsExactly(new Window(128, 256));
        assertThat(image.render().sameContent(raster)).isTrue();
        assertThat(ImageCodec.read(file).sameContent(raster)).isTrue();

        AttributeList list = parse(file);
        assertThat(str(list, TagFromName.SamplesPerPixel)).isEqualTo("1");
        assertThat(str(list, TagFromName.BitsAllocated)).isEqualTo("8");
        assertThat(str(list, TagFromName.BitsStored)).isEqualTo("8");
        assertThat(str(list, TagFromName.HighBit)).isEqualTo("7");
        assertThat(str(list, TagFromName.PixelRepresentation)).isEqualTo("0");
        assertThat(str(list, TagFromName.Rows)).isEqualTo("15");
        assertThat(str(list, TagFromName.Columns)).isEqualTo("17");
        assertThat(list.get(TagFromName.PlanarConfiguration)).isNull();
        assertThat(list.get(TagFromName.PixelData).getVL()).isEqualTo(17 * 15 + 1); // padded to even length
        assertThat(str(list, TagFromName.TransferSyntaxUID)).isEqualTo("1.2.840.10008.1.2.1");
        assertThat(str(list, TagFromName.SOPClassUID)).isEqualTo(DerivedDicom.SECONDARY_CAPTURE);
    }

    @Test
    void colourRasterIsWrittenAsRgbAndReadsBackExactly() throws Exception {
        Raster raster = colourRaster();
        byte[] file = DerivedDicom.from(DicomCodecTest.bytes("SC_rgb_rle.dcm")).toBytes(raster);

        DicomImage image = DicomCodec.read(file, 0, Raster.MAX_PIXELS);
        assertThat(image.photometricInterpretation()).isEqualTo("RGB");
        assertThat(image.render().sameContent(raster)).isTrue();
        AttributeList list = parse(file);
        assertThat(str(list, TagFromName.SamplesPerPixel)).isEqualTo("3");
        assertThat(str(list, TagFromName.PlanarConfiguration)).isEqualTo("0");
        assertThat(str(list, TagFromName.BitsAllocated)).isEqualTo("8");
        assertThat(list.get(TagFromName.WindowCenter)).isNull();
        assertThat(list.get(TagFromName.PixelData).getVL()).isEqualTo(3 * 9 * 7 + 1);
    }

    @Test
    void oneColouredPixelMakesTheImageRgb() throws Exception {
        Raster raster = greyRaster();
        raster.setRgb(16, 14, 0x102030);
        DicomImage image = DicomCodec.read(DerivedDicom.from(DicomCodecTest.bytes("CT_small.dcm")).toBytes(raster),
                0, Raster.MAX_PIXELS);
        assertThat(image.photometricInterpretation()).isEqualTo("RGB");
        assertThat(image.render().sameContent(raster)).isTrue();
    }

    // ---- patient, study, series, instance ----

    @Test
    void patientAndStudyAreKeptAndSeriesIsNew() throws Exception {
        byte[] source = DicomCodecTest.bytes("CT_small.dcm");
        AttributeList src = parse(source);
        AttributeList out = parse(DerivedDicom.from(source).toBytes(greyRaster()));

        for (var tag : List.of(TagFromName.PatientName, TagFromName.PatientID, TagFromName.PatientBirthDate,
                TagFromName.PatientSex, TagFromName.StudyInstanceUID, TagFromName.StudyDate, TagFromName.StudyTime,
                TagFromName.StudyID, TagFromName.AccessionNumber, TagFromName.ReferringPhysicianName,
                TagFromName.StudyDescription, TagFromName.SpecificCharacterSet, TagFromName.Modality)) {
            assertThat(out.get(tag)).as("%s", tag).isNotNull();
            assertThat(str(out, tag)).as("%s", tag).isEqualTo(str(src, tag));
        }
        assertThat(str(out, TagFromName.PatientName)).isEqualTo("CompressedSamples^CT1");
        assertThat(str(out, TagFromName.SpecificCharacterSet)).isEqualTo("ISO_IR 100");
        assertThat(str(out, TagFromName.Modality)).isEqualTo("CT");
        assertThat(str(out, TagFromName.ConversionType)).isEqualTo("WSD");
        assertThat(out.get(TagFromName.ImageType).getStringValues()).containsExactly("DERIVED", "SECONDARY");
        assertThat(str(out, TagFromName.SeriesNumber)).isEqualTo("1001"); // source's 1 + 1000
        assertThat(str(out, TagFromName.InstanceNumber)).isEqualTo("1");
        assertThat(str(out, TagFromName.SeriesDescription)).isEqualTo("Filtered"); // the source has none
        for (var tag : List.of(TagFromName.ContentDate, TagFromName.InstanceCreationDate, TagFromName.SeriesDate)) {
            assertThat(str(out, tag)).as("%s", tag).matches("\\d{8}");
        }
        for (var tag : List.of(TagFromName.ContentTime, TagFromName.InstanceCreationTime, TagFromName.SeriesTime)) {
            assertThat(str(out, tag)).as("%s", tag).matches("\\d{6}");
        }
        assertThat(out.get(TagFromName.PatientOrientation)).isNotNull(); // Type 2C, empty
        // source-only attributes are not carried over
        assertThat(out.get(TagFromName.RescaleSlope)).isNull();
        assertThat(out.get(TagFromName.ImagePositionPatient)).isNull();
    }

    @Test
    void uidsAreNewOursAndValid() throws Exception {
        byte[] source = DicomCodecTest.bytes("MR_small.dcm");
        AttributeList src = parse(source);
        AttributeList out = parse(DerivedDicom.from(source).toBytes(greyRaster()));

        String sop = str(out, TagFromName.SOPInstanceUID);
        String series = str(out, TagFromName.SeriesInstanceUID);
        assertThat(sop).isNotEqualTo(str(src, TagFromName.SOPInstanceUID)).matches(UID_2_25).hasSizeLessThan(65);
        assertThat(series).isNotEqualTo(str(src, TagFromName.SeriesInstanceUID)).matches(UID_2_25)
                .hasSizeLessThan(65).isNotEqualTo(sop);
        assertThat(str(out, TagFromName.MediaStorageSOPInstanceUID)).isEqualTo(sop);
        assertThat(str(out, TagFromName.MediaStorageSOPClassUID)).isEqualTo(DerivedDicom.SECONDARY_CAPTURE);
        assertThat(str(out, TagFromName.ImplementationClassUID)).isEqualTo(Uids.IMPLEMENTATION_CLASS_UID)
                .matches(UID_2_25);
        assertThat(str(out, TagFromName.ImplementationVersionName)).isEqualTo("MEDJAVA_0_1");
        assertThat(out.get(TagFromName.SourceApplicationEntityTitle)).isNull();
    }

    @Test
    void fileMetaGroupLengthCoversExactlyTheMetaElements() throws Exception {
        byte[] file = DerivedDicom.from(DicomCodecTest.bytes("MR_small.dcm")).sourceApplicationEntityTitle("MEDJAVA")
                .toBytes(greyRaster());
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        // (0002,0000) UL 4 <length> starts at 132; its value at 140; the first element after the group at 144 + length
        assertThat(b.getShort(132)).isEqualTo((short) 2);
        assertThat(b.getShort(134)).isZero();
        int length = b.getInt(140);
        int end = 144 + length;
        assertThat(b.getShort(end)).isEqualTo((short) 8); // the dataset starts with group 0008
        int p = 144;
        while (b.getShort(p) == 2) { // walk the meta elements: they must end exactly where the group length says
            String vr = new String(file, p + 4, 2, StandardCharsets.US_ASCII);
            p += vr.equals("OB") ? 12 + b.getInt(p + 8) : 8 + (b.getShort(p + 6) & 0xFFFF);
        }
        assertThat(p).isEqualTo(end);
        assertThat(str(parse(file), TagFromName.SourceApplicationEntityTitle)).isEqualTo("MEDJAVA");
    }

    @Test
    void sourceImageSequenceReferencesTheSource() throws Exception {
        byte[] source = DicomCodecTest.bytes("CT_small.dcm");
        AttributeList src = parse(source);
        AttributeList item = sourceItem(parse(DerivedDicom.from(source).toBytes(greyRaster())));
        assertThat(str(item, TagFromName.ReferencedSOPClassUID)).isEqualTo(str(src, TagFromName.SOPClassUID))
                .isEqualTo("1.2.840.10008.5.1.4.1.1.2");
        assertThat(str(item, TagFromName.ReferencedSOPInstanceUID)).isEqualTo(str(src, TagFromName.SOPInstanceUID));
        assertThat(item.get(TagFromName.ReferencedFrameNumber)).isNull(); // single frame: the whole image
    }

    @Test
    void aFrameOfAMultiFrameSourceIsReferencedByNumber() throws Exception {
        DicomImage frame7 = DicomCodec.read(DicomCodecTest.bytes("rtdose.dcm"), 7, Raster.MAX_PIXELS);
        assertThat(frame7.frameCount()).isEqualTo(15);
        AttributeList out = parse(DerivedDicom.from(frame7).toBytes(frame7.render()));
        AttributeList item = sourceItem(out);
        assertThat(str(item, TagFromName.ReferencedSOPInstanceUID)).isEqualTo(frame7.attributes().sopInstanceUid());
        assertThat(str(item, TagFromName.ReferencedFrameNumber)).isEqualTo("8"); // frames are numbered from 1
        assertThat(str(out, TagFromName.InstanceNumber)).isEqualTo("8");
        assertThat(str(out, TagFromName.Modality)).isEqualTo("RTDOSE");

        assertThatThrownBy(() -> DerivedDicom.from(DicomCodecTest.bytes("rtdose.dcm")).sourceFrame(15))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("15 frame");
    }

    @Test
    void aGivenSopInstanceUidNamesTheNextObjectOnly() throws Exception {
        DerivedDicom.Request request = DerivedDicom.from(DicomCodecTest.bytes("MR_small.dcm"));
        String chosen = Uids.newUid();
        DicomAttributes first = request.sopInstanceUid(chosen).write(greyRaster(), new ByteArrayOutputStream());
        DicomAttributes second = request.write(greyRaster(), new ByteArrayOutputStream());
        assertThat(first.sopInstanceUid()).isEqualTo(chosen);
        assertThat(second.sopInstanceUid()).isNotEqualTo(chosen).matches(UID_2_25);
        assertThatThrownBy(() -> request.sopInstanceUid("1..2")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void oneRequestOrAGivenSeriesUidPutsSeveralObjectsIntoOneSeries() throws Exception {
        byte[] source = DicomCodecTest.bytes("MR_small.dcm");
        DerivedDicom.Request request = DerivedDicom.from(source);
        DicomAttributes first = request.write(greyRaster(), new ByteArrayOutputStream());
        DicomAttributes second = request.write(colourRaster(), new ByteArrayOutputStream());
        assertThat(second.seriesInstanceUid()).isEqualTo(first.seriesInstanceUid())
                .isEqualTo(request.seriesInstanceUid());
        assertThat(second.sopInstanceUid()).isNotEqualTo(first.sopInstanceUid());

        String session = Uids.newUid();
        AttributeList a = parse(DerivedDicom.from(source).seriesInstanceUid(session).toBytes(greyRaster()));
        AttributeList b = parse(DerivedDicom.from(DicomCodecTest.bytes("MR_small_implicit.dcm"))
                .seriesInstanceUid(session).toBytes(greyRaster()));
        assertThat(str(a, TagFromName.SeriesInstanceUID)).isEqualTo(session);
        assertThat(str(b, TagFromName.SeriesInstanceUID)).isEqualTo(session);
        assertThat(str(a, TagFromName.SOPInstanceUID)).isNotEqualTo(str(b, TagFromName.SOPInstanceUID));

        assertThat(DerivedDicom.from(source).seriesInstanceUid(null).seriesInstanceUid()).matches(UID_2_25);
        assertThatThrownBy(() -> DerivedDicom.from(source).seriesInstanceUid("1.2.03"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void nonDicomSourceStartsANewStudyWithoutSourceReference() throws Exception {
        Raster raster = colourRaster();
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ImageCodec.write(raster, ImageFormat.PNG, png);
        assertThatThrownBy(() -> DerivedDicom.from(png.toByteArray())).isInstanceOf(ImageDecodeException.class)
                .hasMessageContaining("newStudy");

        DerivedDicom.Request request = DerivedDicom.newStudy("P-42", "Doe^Jane")
                .derivationDescription("MedJava filters: sharpen p=50");
        byte[] file = request.toBytes(ImageCodec.read(png.toByteArray()));
        AttributeList out = parse(file);
        assertThat(str(out, TagFromName.StudyInstanceUID)).matches(UID_2_25).isEqualTo(request.studyInstanceUid());
        assertThat(str(out, TagFromName.SeriesInstanceUID)).matches(UID_2_25)
                .isNotEqualTo(request.studyInstanceUid());
        assertThat(str(out, TagFromName.PatientID)).isEqualTo("P-42");
        assertThat(str(out, TagFromName.PatientName)).isEqualTo("Doe^Jane");
        assertThat(out.get(TagFromName.PatientBirthDate)).isNotNull();
        assertThat(out.get(TagFromName.SourceImageSequence)).isNull();
        assertThat(str(out, TagFromName.Modality)).isEqualTo("OT");
        assertThat(str(out, TagFromName.SeriesNumber)).isEqualTo("999");
        assertThat(str(out, TagFromName.InstanceNumber)).isEqualTo("1");
        assertThat(str(out, TagFromName.StudyDate)).matches("\\d{8}");
        assertThat(out.get(TagFromName.SpecificCharacterSet)).isNull();
        assertThat(DicomCodec.read(file, 0, Raster.MAX_PIXELS).render().sameContent(raster)).isTrue();

        // a second image of the same upload joins the same study and series
        AttributeList again = parse(request.toBytes(raster));
        assertThat(str(again, TagFromName.StudyInstanceUID)).isEqualTo(request.studyInstanceUid());
        assertThat(str(again, TagFromName.SeriesInstanceUID)).isEqualTo(str(out, TagFromName.SeriesInstanceUID));

        // unknown patient: empty Type 2 attributes
        AttributeList anonymous = parse(DerivedDicom.newStudy(null, null).toBytes(raster));
        assertThat(anonymous.get(TagFromName.PatientID)).isNotNull();
        assertThat(str(anonymous, TagFromName.PatientName)).isEmpty();
    }

    @Test
    void nonAsciiTextIsWrittenAsUtf8() throws Exception {
        byte[] file = DerivedDicom.newStudy("ID-1", "Müller^Jürgen").seriesDescription("Glättung ✓")
                .toBytes(greyRaster());
        AttributeList out = parse(file);
        assertThat(str(out, TagFromName.SpecificCharacterSet)).isEqualTo("ISO_IR 192");
        assertThat(str(out, TagFromName.PatientName)).isEqualTo("Müller^Jürgen");
        assertThat(str(out, TagFromName.SeriesDescription)).isEqualTo("Glättung ✓");
        assertThat(DicomCodec.read(file, 0, Raster.MAX_PIXELS).attributes().patientName()).isEqualTo("Müller^Jürgen");
    }

    // ---- description and derivation ----

    @Test
    void derivationDescriptionIsKeptAndCutTo1024Characters() throws Exception {
        byte[] source = DicomCodecTest.bytes("MR_small.dcm");
        String chain = "MedJava filters: blur n=3 + sharpen p=50";
        AttributeList out = parse(DerivedDicom.from(source).derivationDescription(chain).toBytes(greyRaster()));
        assertThat(str(out, TagFromName.DerivationDescription)).isEqualTo(chain);
        assertThat(out.get(TagFromName.DerivationCodeSequence)).isNull();

        String longChain = "blur n=3 + ".repeat(200);
        AttributeList cut = parse(DerivedDicom.from(source).derivationDescription(longChain).toBytes(greyRaster()));
        assertThat(str(cut, TagFromName.DerivationDescription)).hasSize(DerivedDicom.MAX_DERIVATION_DESCRIPTION)
                .isEqualTo(longChain.substring(0, 1024));

        AttributeList none = parse(DerivedDicom.from(source).toBytes(greyRaster()));
        assertThat(none.get(TagFromName.DerivationDescription)).isNull();
    }

    @Test
    void derivationCodesComeFromCid7203() throws Exception {
        AttributeList out = parse(DerivedDicom.from(DicomCodecTest.bytes("MR_small.dcm"))
                .derivationCodes(DerivationCode.SMOOTHING, DerivationCode.UNSHARP_MASK).toBytes(greyRaster()));
        SequenceAttribute codes = (SequenceAttribute) out.get(TagFromName.DerivationCodeSequence);
        assertThat(codes.getNumberOfItems()).isEqualTo(2);
        AttributeList first = codes.getItem(0).getAttributeList();
        assertThat(str(first, TagFromName.CodeValue)).isEqualTo("113087");
        assertThat(str(first, TagFromName.CodingSchemeDesignator)).isEqualTo("DCM");
        assertThat(str(first, TagFromName.CodeMeaning)).isEqualTo("Smoothing");
        assertThat(str(codes.getItem(1).getAttributeList(), TagFromName.CodeValue)).isEqualTo("113089");
    }

    @Test
    void seriesDescriptionDefaultsToTheSourcesMarkedFiltered() throws Exception {
        byte[] source = DicomCodecTest.bytes("liver_1frame.dcm"); // Series Description "Liver Segmentation"
        assertThat(str(parse(DerivedDicom.from(source).toBytes(greyRaster())), TagFromName.SeriesDescription))
                .isEqualTo("Liver Segmentation (filtered)");
        AttributeList given = parse(DerivedDicom.from(source).seriesDescription("Sharpened\\" + "x".repeat(80))
                .toBytes(greyRaster()));
        assertThat(str(given, TagFromName.SeriesDescription)).hasSize(64).startsWith("Sharpened/xxx");
    }

    @Test
    void lossySourcesMarkTheDerivedImageLossy() throws Exception {
        AttributeList fromJpeg = parse(DerivedDicom.from(DicomCodecTest.bytes("JPEG-lossy.dcm"))
                .toBytes(greyRaster()));
        assertThat(str(fromJpeg, TagFromName.LossyImageCompression)).isEqualTo("01");
        assertThat(str(fromJpeg, TagFromName.LossyImageCompressionRatio)).isEqualTo("76"); // the source's history

        // a JPEG source that does not say it is lossy: the transfer syntax tells
        AttributeList silent = parse(DicomCodecTest.bytes("JPEG-lossy.dcm"));
        silent.remove(TagFromName.LossyImageCompression);
        silent.remove(TagFromName.LossyImageCompressionRatio);
        AttributeList fromSilent = parse(DerivedDicom.from(silent).toBytes(greyRaster()));
        assertThat(str(fromSilent, TagFromName.LossyImageCompression)).isEqualTo("01");
        assertThat(str(fromSilent, TagFromName.LossyImageCompressionMethod)).isEqualTo("ISO_10918_1");
        AttributeList fromNative = parse(DerivedDicom.from(DicomCodecTest.bytes("MR_small.dcm"))
                .toBytes(greyRaster()));
        assertThat(fromNative.get(TagFromName.LossyImageCompression)).isNull();
    }

    // ---- sources and outputs ----

    @Test
    void sourcesAsPathDecodedImageOrAttributeListGiveTheSameContext() throws Exception {
        Path file = dir.resolve("ct.dcm");
        Files.write(file, DicomCodecTest.bytes("CT_small.dcm"));
        AttributeList src = parse(Files.readAllBytes(file));
        List<DerivedDicom.Request> requests = List.of(DerivedDicom.from(file), DerivedDicom.from(src),
                DerivedDicom.from(DicomCodec.read(file)));
        for (DerivedDicom.Request request : requests) {
            AttributeList out = parse(request.toBytes(greyRaster()));
            assertThat(str(out, TagFromName.StudyInstanceUID)).isEqualTo(str(src, TagFromName.StudyInstanceUID));
            assertThat(str(sourceItem(out), TagFromName.ReferencedSOPInstanceUID))
                    .isEqualTo(str(src, TagFromName.SOPInstanceUID));
        }
        assertThatThrownBy(() -> DerivedDicom.from(Path.of(getClass().getResource("/dicom/no_meta.dcm").toURI())))
                .isInstanceOf(ImageDecodeException.class).hasMessageContaining("no_meta.dcm");
        AttributeList withoutSop = new AttributeList();
        withoutSop.putNewAttribute(TagFromName.StudyInstanceUID).addValue("1.2.3");
        assertThatThrownBy(() -> DerivedDicom.from(withoutSop)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("SOPClassUID");
    }

    @Test
    void writingToAPathIsAtomicAndAStreamStaysOpen() throws Exception {
        Path out = dir.resolve("derived.dcm");
        DicomAttributes written = DerivedDicom.from(DicomCodecTest.bytes("MR_small.dcm")).write(greyRaster(), out);
        assertThat(DicomCodec.read(out).attributes()).isEqualTo(written);
        assertThat(written.transferSyntaxUid()).isEqualTo(DicomCodec.EXPLICIT_LE);
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("derived.dcm");
        }

        ByteArrayOutputStream stream = new ByteArrayOutputStream() {
            @Override
            public void close() {
                throw new AssertionError("the caller's stream was closed");
            }
        };
        DerivedDicom.from(DicomCodecTest.bytes("MR_small.dcm")).write(greyRaster(), stream);
        assertThat(DicomCodec.isDicom(stream.toByteArray())).isTrue();
    }

    // ---- UIDs ----

    @Test
    void uidsFollowPs35B2() {
        // the example of PS3.5 B.2
        assertThat(Uids.fromUuid(UUID.fromString("f81d4fae-7dec-11d0-a765-00a0c91e6bf6")))
                .isEqualTo("2.25.329800735698586629295641978511506172918");
        assertThat(Uids.fromUuid(new UUID(0, 0))).isEqualTo("2.25.0");
        assertThat(Uids.fromUuid(new UUID(-1, -1))).isEqualTo("2.25.340282366920938463463374607431768211455")
                .hasSize(44);
        List<String> uids = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            uids.add(Uids.newUid());
        }
        assertThat(uids).doesNotHaveDuplicates().allSatisfy(u -> assertThat(u).matches(UID_2_25)
                .hasSizeLessThanOrEqualTo(64).satisfies(v -> assertThat(Uids.isValid(v)).isTrue()));
        assertThat(Uids.isValid(Uids.IMPLEMENTATION_CLASS_UID)).isTrue();
        for (String bad : List.of("", "1..2", "1.02", ".1", "1.", "1.2a", "1." + "2".repeat(63))) {
            assertThat(Uids.isValid(bad)).as(bad).isFalse();
        }
    }

    @Test
    void nameBasedUidsAreTheVersion3UuidOfTheName() {
        String name = "medjava-viewer-derived|1.2.3|blur n=3";
        assertThat(Uids.fromName(name)).isEqualTo(Uids.fromName(name)).matches(UID_2_25)
                .isEqualTo(Uids.fromUuid(UUID.nameUUIDFromBytes(name.getBytes(java.nio.charset.StandardCharsets.UTF_8))))
                .isNotEqualTo(Uids.fromName(name + " + despeckle"));
    }

    @Test
    void contributorsSummaryNamesEachPluginOnce() {
        String sha = "AB".repeat(32);
        var blur = new DerivedDicom.Contributor("filter-blur", "1.0", sha, "blur n=3");
        var again = new DerivedDicom.Contributor("filter-blur", "1.0", sha, "blur n=5");
        var unknown = new DerivedDicom.Contributor("spread", "", null, "spread");
        assertThat(DerivedDicom.Contributor.summary(List.of(blur, again, unknown)))
                .isEqualTo("filter-blur 1.0 sha256:" + "ab".repeat(32) + ", spread");
        assertThat(DerivedDicom.Contributor.summary(List.of())).isEmpty();
    }

    // ---- external validators, when installed ----

    /** DCMTK's dcmdump parses the whole file without a warning or error. */
    @Test
    void dcmdumpReadsTheFilesCleanly() throws Exception {
        assumeTrue(DcmtkTools.installed("dcmdump"), "dcmdump (DCMTK) is not installed");
        for (byte[] file : samples()) {
            Path p = Files.write(dir.resolve("dump.dcm"), file);
            Tools.Result r = Tools.run(DcmtkTools.path("dcmdump"), "-dc", p.toString()); // -dc: no silent correction of what it reads
            assertThat(r.exitCode()).as(r.output()).isZero();
            assertThat(r.output()).doesNotContain("W: ").doesNotContain("E: ")
                    .contains("SecondaryCaptureImageStorage");
        }
    }

    /** dicom3tools' dciodvfy finds no error against the Secondary Capture IOD. */
    @Test
    void dciodvfyFindsNoErrors() throws Exception {
        assumeTrue(Tools.onPath("dciodvfy"), "dciodvfy (dicom3tools) is not installed");
        for (byte[] file : samples()) {
            Path p = Files.write(dir.resolve("vfy.dcm"), file);
            Tools.Result r = Tools.run("dciodvfy", p.toString());
            assertThat(r.output()).as(r.output()).doesNotContain("Error").contains("SCImage");
        }
    }

    private List<byte[]> samples() throws IOException {
        return List.of(
                DerivedDicom.from(DicomCodecTest.bytes("CT_small.dcm")).derivationDescription("blur n=3")
                        .derivationCodes(DerivationCode.SMOOTHING).toBytes(greyRaster()),
                DerivedDicom.from(DicomCodecTest.bytes("SC_rgb_rle.dcm")).toBytes(colourRaster()),
                DerivedDicom.from(DicomCodec.read(DicomCodecTest.bytes("rtdose.dcm"), 3, Raster.MAX_PIXELS))
                        .toBytes(greyRaster()),
                DerivedDicom.newStudy("ID-1", "Müller^Jürgen").toBytes(colourRaster()));
    }
}
