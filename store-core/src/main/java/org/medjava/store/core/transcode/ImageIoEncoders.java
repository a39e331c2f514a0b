package org.medjava.store.core.transcode;

import com.github.jaiimageio.jpeg2000.J2KImageWriteParam;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.awt.image.DataBufferUShort;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Iterator;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;

/**
 * The encoders ImageIO brings: the JDK's JPEG baseline (8 bits) and jai-imageio's JPEG 2000 (JJ2000, pure Java,
 * already the store's JPEG 2000 decoder), which writes a bare codestream, reversible 5/3 wavelet for lossless,
 * irreversible 9/7 at a bit rate for lossy, no colour transform (so Photometric Interpretation stays RGB).
 */
final class ImageIoEncoders {

    /** The JPEG baseline quality: visually lossless for most images; the ratio is recorded with the object. */
    static final float JPEG_QUALITY = 0.9f;
    /** Lossy JPEG 2000 aims at this compression ratio. */
    static final int J2K_LOSSY_RATIO = 10;

    /** JJ2000's irreversible path undershoots its rate by two orders of magnitude on 16-bit samples (measured). */
    static final String LOSSY_J2K_8_BIT = "lossy JPEG 2000 is written here for 8-bit pixel data only";

    private ImageIoEncoders() {
    }

    static byte[] jpegBaseline(NativeFrames image, int frame) throws NotTranscodable {
        if (image.bitsAllocated() != 8) {
            throw new NotTranscodable("JPEG Baseline holds 8-bit samples only, and this image has "
                    + image.bitsAllocated() + "-bit ones");
        }
        ImageWriter writer = writer("jpeg");
        ImageWriteParam param = writer.getDefaultWriteParam();
        param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        param.setCompressionQuality(JPEG_QUALITY);
        return write(writer, param, image(image, frame, true));
    }

    static byte[] jpeg2000(NativeFrames image, int frame, boolean lossless) throws NotTranscodable {
        if (!lossless && image.bitsAllocated() != 8) {
            throw new NotTranscodable(LOSSY_J2K_8_BIT);
        }
        ImageWriter writer = writer("jpeg2000");
        J2KImageWriteParam param = new J2KImageWriteParam();
        param.setWriteCodeStreamOnly(true);
        param.setComponentTransformation(false);
        param.setLossless(lossless);
        if (lossless) {
            param.setFilter(J2KImageWriteParam.FILTER_53);
        } else {
            param.setFilter(J2KImageWriteParam.FILTER_97);
            param.setEncodingRate((double) image.bitsAllocated() * image.samplesPerPixel() / J2K_LOSSY_RATIO);
        }
        return write(writer, param, image(image, frame, false));
    }

    private static ImageWriter writer(String format) throws NotTranscodable {
        Iterator<ImageWriter> writers = ImageIO.getImageWritersByFormatName(format);
        if (!writers.hasNext()) {
            throw new NotTranscodable("there is no " + format + " encoder here");
        }
        return writers.next();
    }

    private static byte[] write(ImageWriter writer, ImageWriteParam param, BufferedImage image)
            throws NotTranscodable {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ImageOutputStream ios = ImageIO.createImageOutputStream(out)) {
            writer.setOutput(ios);
            writer.write(null, new IIOImage(image, null, null), param);
        } catch (IOException | RuntimeException e) {
            throw new NotTranscodable("the image could not be encoded: " + e.getMessage(), e);
        } finally {
            writer.dispose();
        }
        return out.toByteArray();
    }

    /** A frame as a BufferedImage: grey (8 or 16 bits) or 8-bit RGB. */
    private static BufferedImage image(NativeFrames image, int frame, boolean jpeg) throws NotTranscodable {
        int w = image.columns();
        int h = image.rows();
        int[] s = image.samples()[frame];
        if (image.samplesPerPixel() == 1) {
            if (image.bitsAllocated() == 8) {
                BufferedImage b = new BufferedImage(w, h, BufferedImage.TYPE_BYTE_GRAY);
                byte[] data = ((DataBufferByte) b.getRaster().getDataBuffer()).getData();
                for (int i = 0; i < s.length; i++) {
                    data[i] = (byte) s[i];
                }
                return b;
            }
            BufferedImage b = new BufferedImage(w, h, BufferedImage.TYPE_USHORT_GRAY);
            short[] data = ((DataBufferUShort) b.getRaster().getDataBuffer()).getData();
            for (int i = 0; i < s.length; i++) {
                data[i] = (short) s[i];
            }
            return b;
        }
        if (image.bitsAllocated() != 8) {
            throw new NotTranscodable("colour images are encoded here with 8-bit samples only");
        }
        BufferedImage b = new BufferedImage(w, h, BufferedImage.TYPE_3BYTE_BGR);
        byte[] data = ((DataBufferByte) b.getRaster().getDataBuffer()).getData();
        for (int p = 0; p < w * h; p++) {
            data[3 * p] = (byte) s[3 * p + 2];
            data[3 * p + 1] = (byte) s[3 * p + 1];
            data[3 * p + 2] = (byte) s[3 * p];
        }
        return b;
    }
}
