package org.medjava.viewer.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.UnsupportedDataException;

/** A 16-bit CT filtered on its stored values with the real bundled plugins: window/level stays live. */
class ImageDocumentStoredValuesTest extends SpeckledCtFixture {
    @Test
    void despeckleRunsOnTheStoredValuesAndTheWindowChangesFromSoftTissueToBoneAfterIt() throws IOException {
        ImageDocument doc = new ImageDocument(speckledCt(), 1 << 30);
        assertThat(doc.image().dicom().bitsStored()).isEqualTo(12);
        doc.setWindow(SOFT_TISSUE);
        ImageDocument.Route route = doc.route("Despeckle", filters.registry().supportsGray16("despeckle"));
        assertThat(route.storedValues()).isTrue();
        assertThat(route.note()).isNull();

        GrayRaster16 source = doc.image().dicom().grayRaster();
        GrayRaster16 despeckled = filters.apply("despeckle", ImageDocument.storedValues(doc.image(), doc.state()));
        doc.appliedStored(despeckled, filters.step("despeckle", true));
        assertThat(despeckled.sameContent(source)).as("the speckles are gone").isFalse();
        assertThat(despeckled.valueAt(3, 2)).isLessThan(4000);

        assertThat(doc.windowLive()).isTrue();
        doc.setWindow(BONE);
        assertThat(doc.window()).isEqualTo(BONE);
        assertThat(doc.state().stored()).isSameAs(despeckled);
        assertShowsWindowed(GreyRenderer.render(doc.image().dicom(), doc.state().stored(), BONE), despeckled, BONE);
        assertThat(doc.filterInput().sameContent(doc.currentDicom().render(BONE))).isTrue();
        assertThat(doc.state().chain().describe()).startsWith("despeckle");
        assertThat(doc.state().chain().steps().get(0).plugin().id())
                .isEqualTo(filters.registry().filter("despeckle").orElseThrow().pluginId());
        assertThat(doc.state().chain().steps().get(0).plugin().sha256()).matches("[0-9a-f]{64}");
    }

    @Test
    void anyNumberOfFiltersKeepTheWindowLiveAndUndoWalksBackThroughTheStoredValues() throws IOException {
        ImageDocument doc = new ImageDocument(speckledCt(), 1 << 30);
        GrayRaster16 once = filters.apply("despeckle", doc.image().dicom().grayRaster());
        doc.appliedStored(once, filters.step("despeckle", true));
        GrayRaster16 twice = filters.apply("blur", once);
        doc.appliedStored(twice, filters.step("blur", true));
        assertThat(doc.windowLive()).isTrue();
        doc.setWindow(BONE);
        assertThat(doc.state().chain().steps()).extracting(s -> s.filterId()).containsExactly("despeckle", "blur");

        doc.history().undo();
        assertThat(doc.state().stored()).isSameAs(once);
        assertThat(doc.windowLive()).isTrue();
        doc.setWindow(SOFT_TISSUE);
        doc.history().undo();
        assertThat(doc.state().isOriginal()).isTrue();
        assertThat(doc.window()).isEqualTo(SOFT_TISSUE);
        doc.history().redo();
        assertThat(doc.state().stored()).isSameAs(once);
    }

    @Test
    void theHistoryCountsTwoBytesAStoredValue() throws IOException {
        ImageDocument doc = new ImageDocument(speckledCt(), 1 << 30);
        doc.appliedStored(filters.apply("blur", doc.image().dicom().grayRaster()), filters.step("blur", true));
        assertThat(doc.history().totalBytes()).isEqualTo(2L * 64 * 64);

        ImageDocument tight = new ImageDocument(speckledCt(), 2L * 64 * 64 * 2); // room for two states
        GrayRaster16 values = tight.image().dicom().grayRaster();
        for (int i = 0; i < 4; i++) {
            values = filters.apply("blur", values);
            tight.appliedStored(values, filters.step("blur", true));
        }
        assertThat(tight.history().size()).isEqualTo(3); // the original and the two latest
        assertThat(tight.history().dropped()).isEqualTo(2);
    }

    @Test
    void aFilterWithoutGreyKernelsFallsBackToTheWindowedImageAndSaysSo() throws IOException {
        ImageDocument doc = new ImageDocument(speckledCt(), 1 << 30);
        GrayRaster16 despeckled = filters.apply("despeckle", doc.image().dicom().grayRaster());
        doc.appliedStored(despeckled, filters.step("despeckle", true));
        doc.setWindow(BONE);
        assertThat(filters.registry().supportsGray16(TestFilters.INVERT)).isFalse();
        assertThatThrownBy(() -> filters.apply(TestFilters.INVERT, despeckled))
                .isInstanceOf(UnsupportedDataException.class).hasMessageContaining(TestFilters.INVERT);

        ImageDocument.Route route = doc.route("Invert", false);
        assertThat(route.storedValues()).isFalse();
        assertThat(route.note()).contains("Invert has no 16-bit grey kernels").contains("8-bit image")
                .contains("C 400 W 1800");
        Raster input = doc.filterInput();
        assertThat(input.sameContent(doc.image().dicom().withStoredValues(despeckled).render(BONE))).isTrue();
        Raster inverted = filters.registry().apply(TestFilters.INVERT, input, null, java.util.Map.of(),
                Implementation.OPTIMIZED);
        doc.applied(inverted, filters.step(TestFilters.INVERT, false));
        assertThat(doc.windowLive()).isFalse();
        assertThat(doc.state().renderedWith()).isEqualTo(BONE);
        assertThatThrownBy(() -> doc.setWindow(SOFT_TISSUE)).hasMessageContaining("undo");
        assertThat(doc.route("Blur", true).storedValues()).isFalse(); // after an 8-bit step, 8-bit it stays
        assertThat(doc.route("Blur", true).note()).contains("earlier filter fixed the window");

        doc.history().undo();
        assertThat(doc.windowLive()).isTrue();
        assertThat(doc.state().stored()).isSameAs(despeckled);
    }

    @Test
    void greyOfMoreThan16BitsAndColourTakeThe8BitPath() throws IOException {
        ImageDocument dose = new ImageDocument(Samples.open("dicom/rtdose.dcm"), 1 << 30);
        ImageDocument.Route route = dose.route("Blur", true);
        assertThat(route.storedValues()).isFalse();
        assertThat(route.note()).contains("32-bit").contains("at most 16 bits");
        ImageDocument colour = new ImageDocument(Samples.open("gif/color.gif"), 1 << 30);
        assertThat(colour.route("Blur", true)).isEqualTo(new ImageDocument.Route(false, null));
    }

    /** Every displayed grey level is the window applied to the stored value's Hounsfield units (v - 1024). */
    static void assertShowsWindowed(BufferedImage shown, GrayRaster16 values, Window window) {
        byte[] grey = ((DataBufferByte) shown.getRaster().getDataBuffer()).getData();
        for (int y = 0; y < values.height(); y++) {
            for (int x = 0; x < values.width(); x++) {
                int expected = window.apply(values.valueAt(x, y) - 1024.0);
                int actual = grey[y * values.width() + x] & 0xFF;
                if (actual != expected) {
                    throw new AssertionError("(" + x + "," + y + ") shows " + actual + ", the window gives " + expected);
                }
            }
        }
    }
}
