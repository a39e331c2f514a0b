package org.medjava.viewer.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.dicom.DerivationCode;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomElements;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.viewer.model.FilterChain;
import org.medjava.viewer.model.FilterStep;

class UploadEncoderTest {

    private static final FilterChain CHAIN = FilterChain.EMPTY
            .then(new FilterStep("blur", "n=3", null, Implementation.PARALLEL))
            .then(new FilterStep("edge-detect", "", new Region(1, 2, 30, 40), Implementation.OPTIMIZED));

    @Test
    void derivedDicomIsANewSeriesOfTheSourceStudyRecordingWindowAndFilters() throws IOException {
        OpenedImage ct = Samples.open("dicom/CT_small.dcm");
        Window window = new Window(40, 400);
        Raster pixels = ct.toRaster(window);
        byte[] file = UploadEncoder.encode(new UploadEncoder.Snapshot(pixels, null, ct, CHAIN, window),
                UploadFormat.DICOM).bytes();
        DicomImage derived = DicomCodec.read(file, 0, Raster.MAX_PIXELS);
        assertThat(derived.attributes().studyInstanceUid()).isEqualTo(ct.dicom().attributes().studyInstanceUid());
        assertThat(derived.attributes().seriesInstanceUid()).isNotEqualTo(ct.dicom().attributes().seriesInstanceUid());
        assertThat(derived.attributes().sopInstanceUid()).isNotEqualTo(ct.dicom().attributes().sopInstanceUid());
        assertThat(derived.attributes().patientId()).isEqualTo(ct.dicom().attributes().patientId());
        assertThat(DicomElements.value(derived, "DerivationDescription"))
                .isEqualTo("MedJava viewer: window C 40 W 400; filters: blur n=3 + edge-detect @1,2,30,40");
        assertThat(DicomElements.value(derived, "ImageType")).contains("DERIVED");
        assertThat(DicomElements.of(derived)).extracting(DicomElements.Element::keyword)
                .contains("SourceImageSequence");
        assertThat(derived.render().sameContent(pixels)).isTrue();
    }

    @Test
    void derivationCodesNameWhatTheFiltersDid() {
        assertThat(UploadEncoder.codes(CHAIN)).containsExactly(DerivationCode.SMOOTHING,
                DerivationCode.EDGE_ENHANCEMENT);
        assertThat(UploadEncoder.codes(FilterChain.EMPTY)).isEmpty();
    }

    @Test
    void pngKeepsEveryPixelAndGifSaysWhenItReducesColours() throws IOException {
        OpenedImage gif = Samples.open("gif/color.gif");
        UploadEncoder.Snapshot snapshot = new UploadEncoder.Snapshot(null, null, gif, FilterChain.EMPTY, null);
        byte[] png = UploadEncoder.encode(snapshot, UploadFormat.PNG).bytes();
        assertThat(ImageCodec.read(png).sameContent(gif.toRaster(null))).isTrue();
        UploadEncoder.Encoded asGif = UploadEncoder.encode(snapshot, UploadFormat.GIF);
        assertThat(asGif.reducedColours()).isFalse(); // a GIF source has at most 256 colours
        assertThat(ImageCodec.read(asGif.bytes()).sameContent(gif.toRaster(null))).isTrue();

        Raster noisy = new Raster(64, 64);
        new java.util.Random(42).nextBytes(noisy.rgb());
        assertThat(UploadEncoder.encode(new UploadEncoder.Snapshot(noisy, null, gif, FilterChain.EMPTY, null),
                UploadFormat.GIF).reducedColours()).isTrue();
    }

    @Test
    void aNonDicomSourceBecomesANewStudy() throws IOException {
        OpenedImage gif = Samples.open("gif/ct-small.gif");
        byte[] file = UploadEncoder.encode(new UploadEncoder.Snapshot(null, null, gif, CHAIN, null), UploadFormat.DICOM)
                .bytes();
        DicomImage derived = DicomCodec.read(file, 0, Raster.MAX_PIXELS);
        assertThat(derived.attributes().studyInstanceUid()).isNotBlank();
        assertThat(derived.width()).isEqualTo(gif.width());
    }

    @Test
    void aSynthetic4096CtOpensRendersAndEncodesWithTheDefaultHeap() throws IOException {
        byte[] file = SyntheticDicom.ct(4096, "2.25.4096");
        OpenedImage big = OpenedImage.decode(new ImageOrigin.LocalFile(java.nio.file.Path.of("big.dcm")), file);
        assertThat(big.width()).isEqualTo(4096);
        assertThat(big.dicom().bitsStored()).isEqualTo(12);
        assertThat(big.dicom().modalityValue(4096 * 3 / 8, 4096 * 3 / 8)).isEqualTo(3000 - 1024);
        byte[] derived = UploadEncoder.encode(new UploadEncoder.Snapshot(null, null, big, FilterChain.EMPTY,
                new Window(40, 400)), UploadFormat.DICOM).bytes();
        assertThat(derived.length).isGreaterThan(2 * 4096 * 4096); // the stored values at 16 bits
    }
}
