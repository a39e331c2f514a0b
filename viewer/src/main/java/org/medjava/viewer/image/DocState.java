package org.medjava.viewer.image;

import org.medjava.codec.dicom.Window;
import org.medjava.filter.Raster;
import org.medjava.viewer.model.FilterChain;

/**
 * One undoable state of an open image. {@code pixels} null means the image as opened (a grey DICOM frame is then
 * shown through the current window, which the user may still change); otherwise the filtered 8-bit result, with the
 * window the grey source was rendered through before the first filter ({@code renderedWith}, null for colour).
 */
public record DocState(Raster pixels, FilterChain chain, Window renderedWith) {

    public static DocState original() {
        return new DocState(null, FilterChain.EMPTY, null);
    }

    public boolean isOriginal() {
        return pixels == null;
    }

    public long bytes() {
        return pixels == null ? 0 : pixels.rgb().length;
    }
}
