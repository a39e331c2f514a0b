package org.medjava.store.net.dicomweb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.InstanceSummary;

/** Which instance stands for a study or series in a thumbnail, and the viewport parameter. */
class RenderedImagesTest {

    private static InstanceSummary instance(String series, Integer seriesNumber, String sop, Integer number,
                                            boolean image) {
        return instance(series, seriesNumber, sop, number, image, "1.2.840.10008.1.2.1");
    }

    private static InstanceSummary instance(String series, Integer seriesNumber, String sop, Integer number,
                                            boolean image, String ts) {
        return new InstanceSummary("dicom/P/1.2/" + series + "/" + sop + ".dcm", "P", "Name", "1.2", null, null,
                series, "CT", seriesNumber, null, sop, "1.2.840.10008.5.1.4.1.1.2", number, ts,
                image ? 64 : null, image ? 64 : null, null, 16, "MONOCHROME2", 100, null, null);
    }

    @Test
    void imagesTheStoreCannotDecodeStandForNothingWhileOthersCan() {
        // MPEG-2 video: no decoder here (JPEG-LS, which once stood here, decodes through CharLS)
        InstanceSummary mpeg = instance("1.2.1", 1, "1.2.1.1", 1, true, "1.2.840.10008.1.2.4.100");
        InstanceSummary plain = instance("1.2.2", 2, "1.2.2.1", 1, true);
        assertThat(RenderedImages.representative(List.of(mpeg, plain))).isEqualTo(plain);
        assertThat(RenderedImages.representative(List.of(mpeg))).isEqualTo(mpeg); // then 422 says why
        InstanceSummary jpegLs = instance("1.2.1", 1, "1.2.1.1", 1, true, "1.2.840.10008.1.2.4.80");
        assertThat(RenderedImages.representative(List.of(jpegLs, plain))).isEqualTo(jpegLs);
    }

    @Test
    void theMiddleInstanceByInstanceNumberOfTheFirstSeries() {
        List<InstanceSummary> study = List.of(
                instance("1.2.2", 2, "1.2.2.1", 1, true),
                instance("1.2.1", 1, "1.2.1.5", 5, true),
                instance("1.2.1", 1, "1.2.1.1", 1, true),
                instance("1.2.1", 1, "1.2.1.3", 3, true),
                instance("1.2.1", 1, "1.2.1.9", null, true),
                instance("1.2.1", 1, "1.2.1.2", 2, true));
        // series 1 by SeriesNumber; its instances 1, 2, 3, 5, (none) → the third of five
        assertThat(RenderedImages.representative(study).sopInstanceUid()).isEqualTo("1.2.1.3");
    }

    @Test
    void onlyImagesStandForASeries() {
        List<InstanceSummary> series = List.of(instance("1.2.1", null, "1.2.1.1", 1, false),
                instance("1.2.1", null, "1.2.1.2", 2, true));
        assertThat(RenderedImages.representative(series).sopInstanceUid()).isEqualTo("1.2.1.2");
        assertThatThrownBy(() -> RenderedImages.representative(List.of(instance("1.2.1", 1, "1.2.1.1", 1, false))))
                .isInstanceOf(StoreException.class).hasMessageContaining("not an image")
                .satisfies(e -> assertThat(((StoreException) e).kind()).isEqualTo(StoreException.Kind.NOT_FOUND));
    }

    @Test
    void viewportIsWidthAndHeight() {
        assertThat(RenderedImages.viewport(Map.of())).containsExactly(128, 128);
        assertThat(RenderedImages.viewport(Map.of("viewport", List.of("64,32")))).containsExactly(64, 32);
        assertThat(RenderedImages.viewport(Map.of("viewport", List.of("200")))).containsExactly(200, 200);
        for (String bad : List.of("0,10", "a,b", "99999,1", "1,2,3,4,5")) {
            assertThatThrownBy(() -> RenderedImages.viewport(Map.of("viewport", List.of(bad))))
                    .as(bad).isInstanceOf(StoreException.class).hasMessageContaining("viewport=" + bad);
        }
    }
}
