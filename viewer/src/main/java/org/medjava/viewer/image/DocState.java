package org.medjava.viewer.image;

import org.medjava.codec.dicom.Window;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Raster;
import org.medjava.viewer.model.FilterChain;

/**
 * One undoable state of an open image, one of three kinds:
 * <ul>
 *   <li>the image as opened: {@code pixels} and {@code stored} null (a grey DICOM frame is shown through the current
 *       window, which the user may change);</li>
 *   <li>filtered grey stored values: {@code stored} holds them (same bits stored and signedness as the frame; its
 *       rescale applies), shown through the current window, which stays live;</li>
 *   <li>a filtered 8-bit image: {@code pixels}, with the window a grey source was rendered through before its first
 *       8-bit step ({@code renderedWith}, null for colour); the window is then fixed.</li>
 * </ul>
 */
public record DocState(Raster pixels, GrayRaster16 stored, FilterChain chain, Window renderedWith) {

    public DocState {
        if (pixels != null && stored != null) {
            throw new IllegalArgumentException("a state holds either 8-bit pixels or stored values, not both");
        }
    }

    public static DocState original() {
        return new DocState(null, null, FilterChain.EMPTY, null);
    }

    public boolean isOriginal() {
        return pixels == null && stored == null;
    }

    /** Whether this state is an 8-bit image (the window is then fixed). */
    public boolean isPixels() {
        return pixels != null;
    }

    /** What the state holds, for the history's memory budget: 3 bytes a pixel of RGB, 2 of stored values. */
    public long bytes() {
        if (pixels != null) {
            return pixels.rgb().length;
        }
        return stored == null ? 0 : 2L * stored.words().length;
    }
}
