package org.medjava.viewer.image;

import static org.assertj.core.api.Assertions.assertThat;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.SequenceAttribute;
import com.pixelmed.dicom.TagFromName;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.dicom.DerivedDicom;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomElements;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Raster;

/** Uploads of a CT filtered on its stored values: a 16-bit derived CT with its rescale, window and provenance. */
class UploadEncoderStoredValuesTest extends SpeckledCtFixture {
    private ImageDocument despeckledAtBoneWindow() throws IOException {
        ImageDocument doc = new ImageDocument(speckledCt(), 1 << 30);
        doc.appliedStored(filters.apply("despeckle", doc.image().dicom().grayRaster()),
                filters.step("despeckle", true));
        doc.setWindow(BONE);
        return doc;
    }

    @Test
    void aDerivedDicomOfAFilteredCtIsA16BitCtHoldingTheFiltersOutputWithTheSourcesRescale() throws Exception {
        ImageDocument doc = despeckledAtBoneWindow();
        GrayRaster16 despeckled = doc.state().stored();
        DicomImage source = doc.image().dicom();
        byte[] file = UploadEncoder.encode(UploadEncoder.Snapshot.of(doc), UploadFormat.DICOM).bytes();

        DicomImage derived = DicomCodec.read(file, 0, Raster.MAX_PIXELS);
        assertThat(derived.attributes().sopClassUid()).isEqualTo(DerivedDicom.CT_IMAGE);
        assertThat(DicomElements.value(derived, "BitsAllocated")).isEqualTo("16");
        assertThat(derived.bitsStored()).isEqualTo(12);
        assertThat(derived.isSigned()).isFalse();
        assertThat(derived.rescaleSlope()).isEqualTo(source.rescaleSlope());
        assertThat(derived.rescaleIntercept()).isEqualTo(source.rescaleIntercept()).isEqualTo(-1024);
        assertThat(derived.grayRaster().sameContent(despeckled)).isTrue();
        assertThat(derived.modalityValue(3, 2)).isEqualTo(despeckled.valueAt(3, 2) - 1024.0);
        assertThat(derived.windowPresets()).containsExactly(BONE);
        assertThat(DicomElements.value(derived, "ImageType")).contains("DERIVED").contains("SECONDARY");
        assertThat(derived.attributes().studyInstanceUid()).isEqualTo(source.attributes().studyInstanceUid());
        assertThat(derived.attributes().seriesInstanceUid()).isNotEqualTo(source.attributes().seriesInstanceUid());

        String sha = doc.state().chain().steps().get(0).plugin().sha256();
        String despeckle = filters.registry().filter("despeckle").orElseThrow().pluginId();
        assertThat(DicomElements.value(derived, "DerivationDescription"))
                .startsWith("MedJava viewer: filters on the stored values: despeckle")
                .contains("window C 400 W 1800").contains("plugins: " + despeckle + " ").contains("sha256:" + sha);
        AttributeList list = new AttributeList();
        try (DicomInputStream in = new DicomInputStream(new ByteArrayInputStream(file))) {
            list.read(in);
        }
        SequenceAttribute equipment = (SequenceAttribute) list.get(TagFromName.ContributingEquipmentSequence);
        assertThat(equipment.getNumberOfItems()).isEqualTo(1);
        AttributeList item = equipment.getItem(0).getAttributeList();
        assertThat(item.get(TagFromName.ManufacturerModelName).getSingleStringValueOrEmptyString())
                .isEqualTo(despeckle);
        assertThat(item.get(TagFromName.SoftwareVersions).getDelimitedStringValuesOrEmptyString()).contains(sha);
        SequenceAttribute codes = (SequenceAttribute) list.get(TagFromName.DerivationCodeSequence);
        assertThat(codes.getItem(0).getAttributeList().get(TagFromName.CodeValue)
                .getSingleStringValueOrEmptyString()).isEqualTo("113087"); // smoothing
        assertThat(list.get(TagFromName.SourceImageSequence)).isNotNull();
    }

    @Test
    void pngAndGifHoldTheFilteredValuesThroughTheCurrentWindow() throws IOException {
        ImageDocument doc = despeckledAtBoneWindow();
        byte[] png = UploadEncoder.encode(UploadEncoder.Snapshot.of(doc), UploadFormat.PNG).bytes();
        Raster expected = doc.image().dicom().withStoredValues(doc.state().stored()).render(BONE);
        assertThat(ImageCodec.read(png).sameContent(expected)).isTrue();
    }

    @Test
    void oneDerivedSeriesPerSourceSeriesAndChain() throws IOException {
        ImageDocument doc = despeckledAtBoneWindow();
        String first = series(UploadEncoder.encode(UploadEncoder.Snapshot.of(doc), UploadFormat.DICOM).bytes());
        doc.setWindow(SOFT_TISSUE); // the window is not part of stored values
        String again = series(UploadEncoder.encode(UploadEncoder.Snapshot.of(doc), UploadFormat.DICOM).bytes());
        doc.appliedStored(filters.apply("blur", doc.state().stored()), filters.step("blur", true));
        String longer = series(UploadEncoder.encode(UploadEncoder.Snapshot.of(doc), UploadFormat.DICOM).bytes());
        assertThat(again).isEqualTo(first);
        assertThat(longer).isNotEqualTo(first);
    }

    @Test
    void aChainWithAn8BitStepIsAnEightBitSecondaryCaptureThroughTheFixedWindow() throws IOException {
        ImageDocument doc = despeckledAtBoneWindow();
        Raster inverted = filters.registry().apply(TestFilters.INVERT, doc.filterInput(), null, java.util.Map.of(),
                org.medjava.filter.Implementation.OPTIMIZED);
        doc.applied(inverted, filters.step(TestFilters.INVERT, false));
        byte[] file = UploadEncoder.encode(UploadEncoder.Snapshot.of(doc), UploadFormat.DICOM).bytes();
        DicomImage derived = DicomCodec.read(file, 0, Raster.MAX_PIXELS);
        assertThat(derived.attributes().sopClassUid()).isEqualTo(DerivedDicom.SECONDARY_CAPTURE);
        assertThat(derived.bitsStored()).isEqualTo(8);
        assertThat(derived.render().sameContent(inverted)).isTrue();
        assertThat(DicomElements.value(derived, "DerivationDescription")).contains("window C 400 W 1800")
                .contains("despeckle n=3 (on the stored values) + invert8 (on the 8-bit image)");
        assertThat(UploadEncoder.contributors(doc.state().chain())).extracting(DerivedDicom.Contributor::modelName)
                .isEqualTo(List.of(filters.registry().filter("despeckle").orElseThrow().pluginId(), "invert8"));
    }

    private static String series(byte[] file) throws IOException {
        return DicomCodec.read(file, 0, Raster.MAX_PIXELS).attributes().seriesInstanceUid();
    }
}
