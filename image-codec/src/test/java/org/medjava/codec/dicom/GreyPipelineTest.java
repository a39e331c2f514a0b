package org.medjava.codec.dicom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.SequenceAttribute;
import com.pixelmed.dicom.TagFromName;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.testsupport.Tools;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Raster;

/**
 * The grey pipeline of issue 17 in the codec: stored values as a {@link GrayRaster16}, windowing after filtering
 * identical to the unfiltered rendering, and derived objects at the source's depth with provenance.
 */
class GreyPipelineTest {
    static final String SHA = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    static final List<String> GREY = List.of("CT_small.dcm", "MR_small.dcm", "MR_small_RLE.dcm",
            "MR_small_bigendian.dcm", "MR_small_implicit.dcm", "MR_small_jp2klossless.dcm", "JPEG2000.dcm",
            "image_dfl.dcm");

    @TempDir
    Path dir;

    @Test
    void greySamplesDecodeToTheirStoredValues() throws Exception {
        for (String name : GREY) {
            DicomImage image = DicomCodec.read(DicomCodecTest.bytes(name), 0, Raster.MAX_PIXELS);
            GrayRaster16 raster = image.grayRaster();
            assertThat(raster.bitsStored()).as(name).isEqualTo(image.bitsStored());
            assertThat(raster.signed()).as(name).isEqualTo(image.isSigned());
            assertThat(raster.firstValueOutOfRange()).as(name).isEqualTo(-1);
            int[] stored = image.storedValues();
            for (int i = 0; i < stored.length; i++) {
                assertThat(GrayRaster16.value(raster.words()[i], raster.signed())).isEqualTo(stored[i]);
            }
        }
    }

    /** An unfiltered image renders identically through the grey raster and directly, in any window. */
    @Test
    void windowingTheRasterEqualsTheDirectRendering() throws Exception {
        for (String name : GREY) {
            DicomImage image = DicomCodec.read(DicomCodecTest.bytes(name), 0, Raster.MAX_PIXELS);
            DicomImage back = image.withStoredValues(image.grayRaster());
            assertThat(back.render().rgb()).as(name).isEqualTo(image.render().rgb());
            for (Window w : List.of(new Window(40, 400), new Window(-600, 1500), new Window(0.5, 1),
                    new Window(1000, 4000))) {
                assertThat(back.render(w).rgb()).as(name + " " + w).isEqualTo(image.render(w).rgb());
            }
        }
    }

    @Test
    void colourAndWideDataAreRefusedNamingTheData() throws Exception {
        DicomImage rgb = DicomCodec.read(DicomCodecTest.bytes("SC_rgb_rle.dcm"), 0, Raster.MAX_PIXELS);
        assertThat(rgb.isGray16()).isFalse();
        assertThat(rgb.isRgb8()).isTrue();
        assertThatThrownBy(rgb::grayRaster).isInstanceOf(UnsupportedDicomException.class)
                .hasMessageContaining("8-bit RGB colour");
        DicomImage dose = DicomCodec.read(DicomCodecTest.bytes("rtdose.dcm"), 0, Raster.MAX_PIXELS);
        assertThat(dose.isGray16()).isFalse();
        assertThatThrownBy(dose::grayRaster).isInstanceOf(UnsupportedDicomException.class)
                .hasMessageContaining("32-bit unsigned grey");
    }

    @Test
    void aRasterOfAnotherFormatIsRefused() throws Exception {
        DicomImage ct = DicomCodec.read(DicomCodecTest.bytes("CT_small.dcm"), 0, Raster.MAX_PIXELS);
        assertThatThrownBy(() -> ct.withStoredValues(new GrayRaster16(ct.width(), ct.height(), 12, true)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** A "filter" for these tests: each stored value moved towards the middle of its range, kept in range. */
    static GrayRaster16 changed(GrayRaster16 in) {
        GrayRaster16 out = in.copy();
        short[] w = out.words();
        for (int i = 0; i < w.length; i++) {
            int v = GrayRaster16.value(w[i], in.signed());
            int mid = (in.minValue() + in.maxValue()) / 2;
            w[i] = (short) (v + Integer.signum(mid - v) * Math.min(37, Math.abs(mid - v)));
        }
        return out;
    }

    static DerivedDicom.Request request(DicomImage image) {
        return DerivedDicom.from(image).derivationDescription("MedJava: blur n=3")
                .derivationCodes(DerivationCode.SMOOTHING).window(new Window(40, 400))
                .contributors(List.of(new DerivedDicom.Contributor("filter-blur", "1.0", SHA, "blur n=3")));
    }

    static AttributeList parse(byte[] file) throws Exception {
        AttributeList list = new AttributeList();
        try (DicomInputStream in = new DicomInputStream(new ByteArrayInputStream(file))) {
            list.read(in);
        }
        return list;
    }

    @Test
    void aDerivedCtKeepsItsDepthRescaleAndGeometry() throws Exception {
        byte[] sourceBytes = DicomCodecTest.bytes("CT_small.dcm");
        DicomImage ct = DicomCodec.read(sourceBytes, 0, Raster.MAX_PIXELS);
        GrayRaster16 filtered = changed(ct.grayRaster());
        byte[] file = request(ct).toBytes(filtered);

        DicomImage back = DicomCodec.read(file, 0, Raster.MAX_PIXELS);
        assertThat(back.grayRaster().sameContent(filtered)).isTrue();
        assertThat(back.rescaleSlope()).isEqualTo(ct.rescaleSlope());
        assertThat(back.rescaleIntercept()).isEqualTo(ct.rescaleIntercept());
        assertThat(back.windowPresets()).containsExactly(new Window(40, 400));
        assertThat(back.attributes().sopClassUid()).isEqualTo(DerivedDicom.CT_IMAGE);
        assertThat(back.attributes().modality()).isEqualTo("CT");
        assertThat(back.attributes().sopInstanceUid()).isNotEqualTo(ct.attributes().sopInstanceUid());
        assertThat(back.attributes().seriesInstanceUid()).isNotEqualTo(ct.attributes().seriesInstanceUid());
        assertThat(back.attributes().studyInstanceUid()).isEqualTo(ct.attributes().studyInstanceUid());

        AttributeList list = parse(file);
        AttributeList source = parse(sourceBytes);
        assertThat(list.get(TagFromName.ImageType).getStringValues()).containsExactly("DERIVED", "SECONDARY", "AXIAL");
        for (AttributeTag tag : List.of(TagFromName.PixelSpacing, TagFromName.SliceThickness,
                TagFromName.ImagePositionPatient, TagFromName.ImageOrientationPatient,
                TagFromName.FrameOfReferenceUID, new AttributeTag(0x0018, 0x0060), TagFromName.BitsStored,
                TagFromName.PixelRepresentation, TagFromName.BitsAllocated)) {
            assertThat(list.get(tag).getDelimitedStringValuesOrEmptyString()).as(tag.toString())
                    .isEqualTo(source.get(tag).getDelimitedStringValuesOrEmptyString());
        }
        assertThat(list.get(TagFromName.HighBit).getSingleIntegerValueOrDefault(0)).isEqualTo(15);
        SequenceAttribute src = (SequenceAttribute) list.get(TagFromName.SourceImageSequence);
        assertThat(DicomCodec.string(src.getItem(0).getAttributeList(), TagFromName.ReferencedSOPInstanceUID))
                .isEqualTo(ct.attributes().sopInstanceUid());
        assertThat(DicomCodec.string(list, TagFromName.DerivationDescription)).isEqualTo("MedJava: blur n=3");
        SequenceAttribute codes = (SequenceAttribute) list.get(TagFromName.DerivationCodeSequence);
        assertThat(DicomCodec.string(codes.getItem(0).getAttributeList(), TagFromName.CodeValue)).isEqualTo("113087");
        SequenceAttribute equipment = (SequenceAttribute) list.get(TagFromName.ContributingEquipmentSequence);
        AttributeList item = equipment.getItem(equipment.getNumberOfItems() - 1).getAttributeList();
        assertThat(DicomCodec.string(item, TagFromName.Manufacturer)).isEqualTo("MedJava");
        assertThat(DicomCodec.string(item, TagFromName.ManufacturerModelName)).isEqualTo("filter-blur");
        assertThat(item.get(TagFromName.SoftwareVersions).getStringValues()).containsExactly("1.0", SHA);
        assertThat(DicomCodec.string(item, TagFromName.ContributionDescription)).isEqualTo("blur n=3; sha256:" + SHA);
        SequenceAttribute purpose = (SequenceAttribute) item.get(TagFromName.PurposeOfReferenceCodeSequence);
        assertThat(DicomCodec.string(purpose.getItem(0).getAttributeList(), TagFromName.CodeValue))
                .isEqualTo("109103");
        // no private groups, no overlays, no stale pixel statistics
        assertThat(list.keySet()).noneMatch(t -> t.getGroup() % 2 == 1 && t.getGroup() != 0x0002);
        assertThat(list.get(TagFromName.LargestImagePixelValue)).isNull();
    }

    @Test
    void aDerivedMrAndSecondaryCapturesKeepTheirDepth() throws Exception {
        DicomImage mr = DicomCodec.read(DicomCodecTest.bytes("MR_small.dcm"), 0, Raster.MAX_PIXELS);
        DicomImage back = DicomCodec.read(request(mr).window(null).toBytes(changed(mr.grayRaster())), 0,
                Raster.MAX_PIXELS);
        assertThat(back.attributes().sopClassUid()).isEqualTo(DerivedDicom.MR_IMAGE);
        assertThat(back.grayRaster().sameContent(changed(mr.grayRaster()))).isTrue();
        assertThat(back.windowPresets()).isEqualTo(mr.windowPresets());

        DicomImage sc = DicomCodec.read(DicomCodecTest.bytes("JPEG2000.dcm"), 0, Raster.MAX_PIXELS);
        back = DicomCodec.read(request(sc).toBytes(changed(sc.grayRaster())), 0, Raster.MAX_PIXELS);
        assertThat(back.attributes().sopClassUid()).isEqualTo(DerivedDicom.SECONDARY_CAPTURE);
        assertThat(back.bitsStored()).isEqualTo(16);
        assertThat(back.grayRaster().sameContent(changed(sc.grayRaster()))).isTrue();
        assertThat(back.rescaleSlope()).isEqualTo(sc.rescaleSlope());

        DicomImage eight = DicomCodec.read(DicomCodecTest.bytes("image_dfl.dcm"), 0, Raster.MAX_PIXELS);
        byte[] file = request(eight).toBytes(changed(eight.grayRaster()));
        assertThat(parse(file).get(TagFromName.BitsAllocated).getSingleIntegerValueOrDefault(0)).isEqualTo(8);
        assertThat(DicomCodec.read(file, 0, Raster.MAX_PIXELS).grayRaster().sameContent(changed(eight
                .grayRaster()))).isTrue();
    }

    // ---- external readers, when installed ----

    /** dicom3tools' dciodvfy finds no error in the derived CT, MR and grey Secondary Capture. */
    @Test
    void dciodvfyFindsNoErrors() throws Exception {
        assumeTrue(Tools.onPath("dciodvfy"), "dciodvfy (dicom3tools) is not installed");
        for (String name : List.of("CT_small.dcm", "MR_small.dcm", "JPEG2000.dcm", "image_dfl.dcm")) {
            DicomImage image = DicomCodec.read(DicomCodecTest.bytes(name), 0, Raster.MAX_PIXELS);
            Path p = Files.write(dir.resolve("vfy.dcm"), request(image).toBytes(changed(image.grayRaster())));
            String output = Tools.run("dciodvfy", p.toString()).output();
            assertThat(output).as(name + ":\n" + output).doesNotContain("Error");
        }
    }

    /** pydicom reads the derived CT's Hounsfield units as filtered stored value × slope + intercept. */
    @Test
    void pydicomReadsTheExpectedHounsfieldUnits() throws Exception {
        String python = Tools.python("pydicom", "numpy");
        assumeTrue(python != null, "python3 with pydicom (Debian python3-pydicom) is not installed");
        DicomImage ct = DicomCodec.read(DicomCodecTest.bytes("CT_small.dcm"), 0, Raster.MAX_PIXELS);
        GrayRaster16 filtered = changed(ct.grayRaster());
        Path p = Files.write(dir.resolve("ct.dcm"), request(ct).toBytes(filtered));
        String out = Tools.run(python, "-c", PYDICOM_HU, p.toString()).output();
        String[] lines = out.strip().split("\n");
        assertThat(lines[0]).as(out).isEqualTo("CT " + ct.width() + " " + ct.height());
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < filtered.words().length; i++) {
            double hu = GrayRaster16.value(filtered.words()[i], filtered.signed()) * ct.rescaleSlope()
                    + ct.rescaleIntercept();
            expected.add(String.format(Locale.ROOT, "%.3f", hu));
        }
        assertThat(List.of(lines).subList(1, lines.length)).as(out.length() > 2000 ? out.substring(0, 2000) : out)
                .isEqualTo(expected);
    }

    /** Prints modality, size, then every pixel's modality value (pydicom's Modality LUT), one a line. */
    static final String PYDICOM_HU = String.join("\n",
            "import sys, pydicom",
            "from pydicom.pixel_data_handlers.util import apply_modality_lut",
            "ds = pydicom.dcmread(sys.argv[1])",
            "hu = apply_modality_lut(ds.pixel_array, ds)",
            "print(ds.Modality, ds.Columns, ds.Rows)",
            "print('\\n'.join('%.3f' % v for v in hu.flatten()))");
}
