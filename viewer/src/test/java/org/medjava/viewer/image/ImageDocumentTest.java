package org.medjava.viewer.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.viewer.model.FilterStep;

class ImageDocumentTest {

    private static final FilterStep STEP = new FilterStep("blur", "n=3", null, Implementation.PARALLEL);

    @Test
    void aGreyDicomStartsWithItsFileWindowAndFiltersFromIt() throws IOException {
        ImageDocument doc = new ImageDocument(Samples.open("dicom/CT_small.dcm"), 1 << 30);
        assertThat(doc.windowLive()).isTrue();
        Window window = new Window(40, 400);
        doc.setWindow(window);
        assertThat(doc.filterInput().sameContent(doc.image().dicom().render(window))).isTrue();
    }

    @Test
    void filteringFixesTheWindowAndUndoMakesItLiveAgain() throws IOException {
        ImageDocument doc = new ImageDocument(Samples.open("dicom/CT_small.dcm"), 1 << 30);
        Window window = new Window(40, 400);
        doc.setWindow(window);
        Raster result = new Raster(doc.width(), doc.height());
        doc.applied(result, STEP);
        assertThat(doc.windowLive()).isFalse();
        assertThat(doc.state().renderedWith()).isEqualTo(window);
        assertThat(doc.state().chain().describe()).isEqualTo("blur n=3");
        assertThat(doc.filterInput()).isSameAs(result);
        assertThatThrownBy(() -> doc.setWindow(new Window(1, 2))).hasMessageContaining("undo");

        doc.history().undo();
        assertThat(doc.windowLive()).isTrue();
        assertThat(doc.window()).isEqualTo(window);
    }

    @Test
    void aSecondFilterKeepsTheWindowOfTheFirst() throws IOException {
        ImageDocument doc = new ImageDocument(Samples.open("dicom/CT_small.dcm"), 1 << 30);
        Window window = doc.window();
        doc.applied(new Raster(doc.width(), doc.height()), STEP);
        doc.applied(new Raster(doc.width(), doc.height()), STEP);
        assertThat(doc.state().renderedWith()).isEqualTo(window);
        assertThat(doc.state().chain().steps()).hasSize(2);
    }

    @Test
    void rasterImagesHaveNoWindow() throws IOException {
        ImageDocument doc = new ImageDocument(Samples.open("gif/color.gif"), 1 << 30);
        assertThat(doc.windowLive()).isFalse();
        assertThat(doc.window()).isNull();
        assertThat(doc.filterInput().width()).isEqualTo(doc.width());
    }

    @Test
    void anotherFrameIsDecodedFromTheKeptFile() throws IOException {
        OpenedImage dose = Samples.open("dicom/rtdose.dcm");
        assertThat(dose.dicom().frameCount()).isEqualTo(15);
        OpenedImage sixth = dose.frame(5);
        assertThat(sixth.dicom().frame()).isEqualTo(5);
        assertThat(sixth.dicom().storedValues()).isNotEqualTo(dose.dicom().storedValues());
        ImageDocument doc = new ImageDocument(dose, 1 << 30);
        doc.setFrame(sixth);
        assertThat(doc.image().dicom().frame()).isEqualTo(5);
    }

    @Test
    void framesChangeOnlyBeforeFiltering() throws IOException {
        ImageDocument doc = new ImageDocument(Samples.open("dicom/CT_small.dcm"), 1 << 30);
        doc.applied(new Raster(doc.width(), doc.height()), STEP);
        assertThatThrownBy(() -> doc.setFrame(doc.image())).hasMessageContaining("undo the filters");
    }
}
