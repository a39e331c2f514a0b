package org.medjava.viewer.image;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.ImageFormat;
import org.medjava.codec.dicom.DerivationCode;
import org.medjava.codec.dicom.DerivedDicom;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.codec.dicom.Uids;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Raster;
import org.medjava.viewer.model.FilterChain;
import org.medjava.viewer.model.FilterStep;

/**
 * Encodes the image to upload. GIF and PNG hold the 8-bit image (through the current window). A derived DICOM of a
 * grey source whose filters all ran on its stored values holds the filtered stored values at the source's depth (a
 * CT stays a CT with its rescale; the current window as its Window Center/Width); otherwise it is an 8-bit Secondary
 * Capture (a new study for non-DICOM sources). Either is a new series of the source's study referencing the source,
 * with the chain in its Derivation Description, CID 7203 codes, and one Contributing Equipment item per step naming
 * the plugin, its version and SHA-256.
 */
public final class UploadEncoder {
    private UploadEncoder() {
    }

    /**
     * What to encode: the filtered 8-bit pixels or the filtered stored values (both null for the image as opened),
     * the image they came from, the chain, and the window of a grey source (the current one, or the one an 8-bit
     * result was rendered through). Taken on the event thread; {@link #pixels()} may be costly.
     */
    public record Snapshot(Raster filtered, GrayRaster16 stored, OpenedImage source, FilterChain chain,
                           Window window) {
        /** Of a document's current state, with its current window (or the window an 8-bit state was fixed at). */
        public static Snapshot of(ImageDocument doc) {
            DocState s = doc.state();
            Window w = s.isPixels() ? s.renderedWith() : (doc.image().isGreyDicom() ? doc.window() : null);
            return new Snapshot(s.pixels(), s.stored(), doc.image(), s.chain(), w);
        }

        /** The 8-bit image: the filter result, or the stored values (filtered or not) through the window. */
        public Raster pixels() {
            return ImageDocument.pixels(source, new DocState(filtered, stored, chain, null), window);
        }

        /** Whether a derived DICOM holds stored values at the source's depth (not 8-bit pixels). */
        public boolean keepsStoredValues() {
            return filtered == null && source.isDicom() && source.dicom().isGray16();
        }
    }

    /** The encoded file, and whether GIF had to reduce the colours. */
    public record Encoded(byte[] bytes, boolean reducedColours) {
    }

    public static Encoded encode(Snapshot s, UploadFormat format) throws IOException {
        return encode(s, format, null);
    }

    /** As {@link #encode(Snapshot, UploadFormat)}; a DICOM object gets {@code sopInstanceUid} (null: a new one). */
    public static Encoded encode(Snapshot s, UploadFormat format, String sopInstanceUid) throws IOException {
        if (format == UploadFormat.DICOM) {
            return new Encoded(derived(s, sopInstanceUid), false);
        }
        Raster pixels = s.pixels();
        return switch (format) {
            case GIF -> new Encoded(write(pixels, ImageFormat.GIF), gifLoses(pixels));
            case PNG -> new Encoded(write(pixels, ImageFormat.PNG), false);
            case DICOM -> throw new AssertionError("handled above");
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

    /** The Series Instance UID a derived DICOM object of a DICOM source gets (see {@link #seriesUid}). */
    public static String derivedSeriesUid(Snapshot s) {
        return seriesUid(s.source().dicom(), s.chain(), s.keepsStoredValues() ? null : s.window());
    }

    private static byte[] derived(Snapshot s, String sopInstanceUid) throws IOException {
        FilterChain chain = s.chain();
        boolean stored = s.keepsStoredValues();
        List<DerivedDicom.Contributor> contributors = contributors(chain);
        String plugins = DerivedDicom.Contributor.summary(chain.steps().stream().filter(step -> step.plugin() != null)
                .map(UploadEncoder::contributor).toList());
        String description = (stored ? chain.storedValuesDerivationDescription(s.window())
                : chain.derivationDescription(s.window())) + (plugins.isEmpty() ? "" : "; plugins: " + plugins);
        DerivedDicom.Request request = s.source().isDicom() ? DerivedDicom.from(s.source().dicom())
                : DerivedDicom.newStudy(null, null);
        request.derivationDescription(description)
                .seriesDescription(chain.isEmpty() ? "MedJava viewer" : "MedJava: " + chain.describe())
                .derivationCodes(codes(chain))
                .contributors(contributors);
        if (s.source().isDicom()) {
            request.seriesInstanceUid(derivedSeriesUid(s));
        }
        request.sopInstanceUid(sopInstanceUid);
        if (stored) {
            GrayRaster16 values = s.stored() != null ? s.stored() : s.source().dicom().grayRaster();
            return request.window(s.window()).toBytes(values);
        }
        return request.toBytes(s.pixels());
    }

    /**
     * One derived series per source series and chain (and, for 8-bit pixels, the window they were rendered through):
     * a name-based UID, so uploads of several images of a series with the same chain land in one series.
     */
    static String seriesUid(DicomImage source, FilterChain chain, Window pixelsWindow) {
        return Uids.fromName("medjava-viewer-derived|" + source.attributes().seriesInstanceUid() + "|"
                + chain.describe() + "|" + (pixelsWindow == null ? "stored values" : "8-bit "
                + pixelsWindow.center() + "," + pixelsWindow.width()));
    }

    /** One Contributing Equipment item per step: the plugin that ran it (its id, version, SHA-256) and the step. */
    static List<DerivedDicom.Contributor> contributors(FilterChain chain) {
        return chain.steps().stream().map(UploadEncoder::contributor).toList();
    }

    private static DerivedDicom.Contributor contributor(FilterStep step) {
        FilterStep.Plugin p = step.plugin();
        return p == null ? new DerivedDicom.Contributor(step.filterId(), "", "", step.describe())
                : new DerivedDicom.Contributor(p.id(), p.version(), p.sha256(), step.describe());
    }

    /** CID 7203 codes for the filters that have one (the description carries the exact chain either way). */
    static DerivationCode[] codes(FilterChain chain) {
        return DerivationCode.forFilters(chain.steps().stream().map(FilterStep::filterId).toList());
    }
}
