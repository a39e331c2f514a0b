package org.medjava.viewer.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.InvalidParameterException;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.runtime.CallControl;
import org.medjava.filter.runtime.RegistryException;

/** The parameter dialog's live preview: which crop it filters, by which route, and that it matches Apply. */
class FilterPreviewTest extends SpeckledCtFixture {

    @Test
    void theCropIsASmallSelectionItselfElseACentredPartOfTheSelectionOrImage() {
        assertThat(FilterPreview.crop(4096, 4096, Region.of(10, 20, 100, 50), 256))
                .isEqualTo(Region.of(10, 20, 100, 50));
        assertThat(FilterPreview.crop(4096, 4096, null, 256)).isEqualTo(Region.of(1920, 1920, 256, 256));
        assertThat(FilterPreview.crop(4096, 4096, Region.of(100, 100, 1000, 200), 256))
                .isEqualTo(Region.of(472, 100, 256, 200));
        assertThat(FilterPreview.crop(64, 48, null, 256)).isEqualTo(Region.of(0, 0, 64, 48));
        assertThat(FilterPreview.crop(64, 48, Region.of(60, 40, 20, 20), 256)).as("clipped to the image")
                .isEqualTo(Region.of(60, 40, 4, 8));
    }

    @Test
    void aGreyCtIsPreviewedOnItsStoredValuesExactlyAsApplyFiltersTheSelectedRegion() throws IOException {
        OpenedImage ct = speckledCt();
        ImageDocument doc = new ImageDocument(ct, 1 << 30);
        Region selection = Region.of(5, 7, 30, 20);
        FilterPreview preview = FilterPreview.prepare(filters.registry(), "despeckle", "DeSpeckle", ct, doc.state(),
                BONE, selection);

        BufferedImage shown = preview.run(Map.of("n", "5"), Implementation.OPTIMIZED, CallControl.unlimited());

        assertThat(preview.storedValues()).isTrue();
        assertThat(preview.exact()).isTrue();
        assertThat(preview.crop()).isEqualTo(selection);
        assertThat(preview.describe()).contains("exactly what Apply gives");
        GrayRaster16 applied = filters.registry().apply("despeckle", ct.dicom().grayRaster(), selection,
                Map.of("n", "5"), Implementation.OPTIMIZED);
        assertSameGrey(shown, crop(GreyRenderer.render(ct.dicom(), applied, BONE), selection));
        assertSameGrey(preview.before(), crop(GreyRenderer.render(ct.dicom(), BONE), selection));
        assertThat(greys(shown)).isNotEqualTo(greys(preview.before()));
    }

    @Test
    void aFilterWithoutGreyKernelsIsPreviewedOnThe8BitImageThroughTheWindow() throws IOException {
        OpenedImage ct = speckledCt();
        ImageDocument doc = new ImageDocument(ct, 1 << 30);
        FilterPreview preview = FilterPreview.prepare(filters.registry(), TestFilters.INVERT, "Invert", ct,
                doc.state(), SOFT_TISSUE, null);

        BufferedImage shown = preview.run(Map.of(), Implementation.OPTIMIZED, CallControl.unlimited());

        assertThat(preview.storedValues()).isFalse();
        assertThat(preview.exact()).as("a 64x64 image fits whole").isTrue();
        Raster inverted = filters.registry().apply(TestFilters.INVERT, ct.toRaster(SOFT_TISSUE), null, Map.of(),
                Implementation.OPTIMIZED);
        assertSameGrey(shown, Rasters.toDisplay(inverted));
    }

    @Test
    void aBadValueIsRefusedWithItsRuleAndACancelledControlStopsTheRun() throws IOException {
        OpenedImage ct = speckledCt();
        FilterPreview preview = FilterPreview.prepare(filters.registry(), "blur", "Blur", ct,
                new ImageDocument(ct, 1 << 30).state(), SOFT_TISSUE, null);

        assertThatThrownBy(() -> preview.run(Map.of("n", "4"), Implementation.OPTIMIZED, CallControl.unlimited()))
                .isInstanceOf(InvalidParameterException.class).hasMessageContaining("an odd integer");
        CallControl cancelled = CallControl.unlimited();
        cancelled.cancel("newer values");
        assertThatThrownBy(() -> preview.run(Map.of(), Implementation.OPTIMIZED, cancelled))
                .isInstanceOf(RegistryException.CallCancelledException.class);
        assertThat(FilterPreview.isPreviewThread()).isFalse();
    }

    private static BufferedImage crop(BufferedImage image, Region r) {
        return image.getSubimage(r.x(), r.y(), r.width(), r.height());
    }

    private static int[] greys(BufferedImage image) {
        return image.getRaster().getPixels(0, 0, image.getWidth(), image.getHeight(), (int[]) null);
    }

    private static void assertSameGrey(BufferedImage actual, BufferedImage expected) {
        assertThat(actual.getWidth()).isEqualTo(expected.getWidth());
        assertThat(actual.getHeight()).isEqualTo(expected.getHeight());
        assertThat(greys(actual)).isEqualTo(greys(expected));
    }
}
