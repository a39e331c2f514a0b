package org.medjava.viewer.image;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.awt.image.DataBufferInt;
import org.medjava.filter.Raster;

/** Filter rasters to displayable images: grey when every pixel is grey (a third of the memory), else packed RGB. */
public final class Rasters {
    private Rasters() {
    }

    public static BufferedImage toDisplay(Raster raster) {
        byte[] rgb = raster.rgb();
        if (isGrey(rgb)) {
            BufferedImage out = new BufferedImage(raster.width(), raster.height(), BufferedImage.TYPE_BYTE_GRAY);
            byte[] grey = ((DataBufferByte) out.getRaster().getDataBuffer()).getData();
            for (int p = 0, i = 0; p < grey.length; p++, i += 3) {
                grey[p] = rgb[i];
            }
            return out;
        }
        BufferedImage out = new BufferedImage(raster.width(), raster.height(), BufferedImage.TYPE_INT_RGB);
        int[] packed = ((DataBufferInt) out.getRaster().getDataBuffer()).getData();
        for (int p = 0, i = 0; p < packed.length; p++, i += 3) {
            packed[p] = (rgb[i] & 0xFF) << 16 | (rgb[i + 1] & 0xFF) << 8 | (rgb[i + 2] & 0xFF);
        }
        return out;
    }

    static boolean isGrey(byte[] rgb) {
        for (int i = 0; i < rgb.length; i += 3) {
            if (rgb[i] != rgb[i + 1] || rgb[i] != rgb[i + 2]) {
                return false;
            }
        }
        return true;
    }
}
