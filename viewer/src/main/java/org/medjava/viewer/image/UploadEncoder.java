package org.medjava.viewer.image;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.ImageFormat;
import org.medjava.codec.dicom.DerivedDicom;
import org.medjava.codec.dicom.DerivationCode;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.Raster;
import org.medjava.viewer.model.FilterChain;
import org.medjava.viewer.model.FilterStep;

/**
 * Encodes the image to upload. GIF and PNG hold the 8-bit result; a derived DICOM is a Secondary Capture of the
 * source's patient and study (a new study for non-DICOM sources) in a new series, referencing the source, with the
 * window and filter chain in its Derivation Description, so a PACS sees it as a new series.
 */
public final class UploadEncoder {
    private UploadEncoder() {
    }

    /**
     * What to encode: the filtered pixels (null for the image as opened), the image they came from, the chain and
     * the window a grey source was rendered through. Taken on the event thread; {@link #pixels()} may be costly.
     */
    public record Snapshot(Raster filtered, OpenedImage source, FilterChain chain, Window window) {
        /** The 8-bit image: the filter result, or the original rendered through the window. */
        public Raster pixels() {
            return filtered != null ? filtered : source.toRaster(window);
        }
    }

    /** The encoded file, and whether GIF had to reduce the colours. */
    public record Encoded(byte[] bytes, boolean reducedColours) {
    }

    public static Encoded encode(Snapshot s, UploadFormat format) throws IOException {
        Raster pixels = s.pixels();
        return switch (format) {
            case GIF -> new Encoded(write(pixels, ImageFormat.GIF), gifLoses(pixels));
            case PNG -> new Encoded(write(pixels, ImageFormat.PNG), false);
            case DICOM -> new Encoded(derived(s, pixels), false);
        };
    }

    /** Whether GIF must reduce the image to 256 colours (the user is told). */
    public static boolean gifLoses(Raster raster) {
        return !ImageCodec.isLossless(raster, ImageFormat.GIF);
    }

    private static byte[] write(Raster raster, ImageFormat format) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(raster.rgb().length / 4 + 1024);
        ImageCodec.write(raster, format, out);
        return out.toByteArray();
    }

    private static byte[] derived(Snapshot s, Raster pixels) throws IOException {
        String description = s.chain().derivationDescription(s.window());
        DerivedDicom.Request request = s.source().isDicom() ? DerivedDicom.from(s.source().dicom())
                : DerivedDicom.newStudy(null, null);
        request.derivationDescription(description)
                .seriesDescription(s.chain().isEmpty() ? "MedJava viewer" : "MedJava: " + s.chain().describe());
        request.derivationCodes(codes(s.chain()));
        return request.toBytes(pixels);
    }

    /** CID 7203 codes for the filters that have one (the description carries the exact chain either way). */
    static DerivationCode[] codes(FilterChain chain) {
        return DerivationCode.forFilters(chain.steps().stream().map(FilterStep::filterId).toList());
    }
}
