package org.medjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.SequenceAttribute;
import com.pixelmed.dicom.TagFromName;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Region;

/** {@code medjava filter} on grey DICOM and 16-bit PGM: stored values filtered, derived DICOM at the source's depth. */
class GreyFilterTest {
    @TempDir
    Path dir;
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();

    int run(String... args) {
        return Main.run(Arrays.asList(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    static Path root() {
        return Path.of(System.getProperty("medjava.root"));
    }

    static Path dicom(String name) {
        return root().resolve("testdata/samples/dicom").resolve(name);
    }

    /** The chain run straight through the plugin classes on the stored values. */
    static GrayRaster16 blurred(GrayRaster16 in, int n) {
        GrayRaster16 dst = in.copy();
        var blur = MainTest.direct("blur");
        blur.applyGray16(in, dst, in.bounds(), blur.descriptor().params(Map.of("n", Integer.toString(n))),
                Implementation.STRAIGHTFORWARD);
        return dst;
    }

    @Test
    void writesTheDerivedCtAtTheSourcesDepthWithProvenance() throws Exception {
        Path output = dir.resolve("out.dcm");
        assertThat(run("filter", "blur", "n=3", dicom("CT_small.dcm").toString(), output.toString()))
                .as(err.toString(StandardCharsets.UTF_8)).isZero();

        DicomImage ct = DicomCodec.read(dicom("CT_small.dcm"));
        DicomImage derived = DicomCodec.read(output);
        assertThat(derived.attributes().sopClassUid()).isEqualTo("1.2.840.10008.5.1.4.1.1.2");
        assertThat(derived.grayRaster().sameContent(blurred(ct.grayRaster(), 3))).isTrue();
        assertThat(derived.rescaleIntercept()).isEqualTo(ct.rescaleIntercept());
        assertThat(derived.rescaleSlope()).isEqualTo(ct.rescaleSlope());
        AttributeList list = new AttributeList();
        try (DicomInputStream in = new DicomInputStream(Files.newInputStream(output))) {
            list.read(in);
        }
        assertThat(list.get(TagFromName.ImageType).getStringValues()).startsWith("DERIVED", "SECONDARY");
        SequenceAttribute equipment = (SequenceAttribute) list.get(TagFromName.ContributingEquipmentSequence);
        AttributeList item = equipment.getItem(equipment.getNumberOfItems() - 1).getAttributeList();
        assertThat(item.get(TagFromName.ManufacturerModelName).getSingleStringValueOrEmptyString())
                .isEqualTo("blur");
        assertThat(item.get(TagFromName.SoftwareVersions).getStringValues()[1]).matches("[0-9a-f]{64}");
        assertThat(list.get(TagFromName.DerivationDescription).getSingleStringValueOrEmptyString())
                .contains("blur").containsPattern("sha256:[0-9a-f]{64}");
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("16-bit signed grey").contains("wrote");
    }

    @Test
    void theSameChainOverOneSeriesGivesOneDerivedSeriesAndAnotherChainAnother() throws Exception {
        String source = dicom("CT_small.dcm").toString();
        Path a = dir.resolve("a.dcm");
        Path b = dir.resolve("b.dcm");
        Path other = dir.resolve("other.dcm");
        assertThat(run("filter", "blur", "n=3", source, a.toString())).isZero();
        assertThat(run("filter", "blur", "n=3", source, b.toString())).isZero();
        assertThat(run("filter", "blur", "n=5", source, other.toString())).isZero();

        var first = DicomCodec.read(a).attributes();
        var second = DicomCodec.read(b).attributes();
        assertThat(second.seriesInstanceUid()).isEqualTo(first.seriesInstanceUid()).startsWith("2.25.");
        assertThat(second.sopInstanceUid()).isNotEqualTo(first.sopInstanceUid());
        assertThat(DicomCodec.read(other).attributes().seriesInstanceUid()).isNotEqualTo(first.seriesInstanceUid());
    }

    @Test
    void aGreyDicomToPngIsFilteredFirstAndWindowedSecond() throws Exception {
        Path output = dir.resolve("out.png");
        assertThat(run("filter", "blur", "n=5", dicom("CT_small.dcm").toString(), output.toString(), "--window",
                "40,400", "--region", "10,20,50,40")).as(err.toString(StandardCharsets.UTF_8)).isZero();
        DicomImage ct = DicomCodec.read(dicom("CT_small.dcm"));
        GrayRaster16 dst = ct.grayRaster().copy();
        var blur = MainTest.direct("blur");
        blur.applyGray16(ct.grayRaster(), dst, Region.of(10, 20, 50, 40), blur.descriptor().params(Map.of("n", "5")),
                Implementation.STRAIGHTFORWARD);
        assertThat(ImageCodec.read(output).rgb()).isEqualTo(ct.withStoredValues(dst).render(new Window(40, 400))
                .rgb());
    }

    @Test
    void sixteenBitPgmInAndOutOnTheStoredValues() throws Exception {
        DicomImage ct = DicomCodec.read(dicom("CT_small.dcm"));
        Path in = dir.resolve("ct.pgm");
        Pgm.write(ct.grayRaster(), in);
        Path output = dir.resolve("out.pgm");
        assertThat(run("filter", "blur", "n=3", in.toString(), output.toString(), "--gray", "s16"))
                .as(err.toString(StandardCharsets.UTF_8)).isZero();
        GrayRaster16 back = Pgm.read(output, "s16");
        assertThat(back.sameContent(blurred(ct.grayRaster(), 3))).isTrue();
        assertThat(new String(Files.readAllBytes(output), 0, 17, StandardCharsets.US_ASCII))
                .startsWith("P5\n128 128\n65535\n");
    }

    @Test
    void dataNoFilterServesIsRefusedNamingDataAndFilter() {
        Path output = dir.resolve("out.png");
        assertThat(run("filter", "blur", dicom("rtdose.dcm").toString(), output.toString())).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("blur cannot filter 32-bit unsigned grey data");
        assertThat(output).doesNotExist();
    }
}
