package org.medjava.codec.dicom;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.TagFromName;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.medjava.codec.ImageDecodeException;
import org.medjava.codec.ImageFormat;
import org.medjava.codec.ImageHeader;

/**
 * The size a compressed frame's own header gives (JPEG's frame header SOFn, JPEG 2000's SIZ marker segment), checked
 * against the DICOM Columns and Rows before the frame goes to a decoder that is not image-codec's own (ImageIO's JPEG
 * reader, PixelMed's lossless JPEG, jai-imageio's JPEG 2000) and before OpenJPEG or OpenJPH (so the message names the
 * coded size, whichever reads the frame): those allocate and fill the image their stream asks
 * for, so a 3 KB file whose JPEG claims 20000 x 20000 took 3.4 GB and seconds before the size check after decoding
 * refused it (found by the CI fuzz round). The decoders image-codec owns check the same before decoding.
 */
public final class CodedFrameSize {
    private static final int JP2_SIGNATURE_BOX = 0x6A502020; // "jP  "
    private static final int JP2_CODESTREAM_BOX = 0x6A703263; // "jp2c"

    private CodedFrameSize() {
    }

    /** Refuses frame {@code frame} unless its coded size is {@code columns} x {@code rows} with 1 to 4 components. */
    static void require(String ts, Attribute pixelData, int frame, int columns, int rows)
            throws ImageDecodeException {
        byte[] data = PixelFrames.compressedFrame(ts, pixelData, frame);
        long[] size = Jpeg2000.handles(ts) ? jpeg2000(data) : jpeg(data);
        if (size[0] != columns || size[1] != rows) {
            throw new ImageDecodeException("DICOM frame " + frame + " is coded as " + size[0] + "x" + size[1]
                    + ", the DICOM header says " + columns + "x" + rows + " (Columns x Rows)");
        }
    }

    /**
     * Every frame of {@code list} (read with decompression off), for a caller about to decompress them all (the
     * transcoder, the ingest check); nothing to check for uncompressed data, RLE or JPEG-LS.
     */
    public static void requireEveryFrame(AttributeList list, String ts) throws ImageDecodeException {
        if (!ts.startsWith("1.2.840.10008.1.2.4.") || ts.startsWith("1.2.840.10008.1.2.4.8")) {
            return; // native, RLE, or JPEG-LS (CharLS checks the size before decoding)
        }
        Attribute pixelData = list.get(TagFromName.PixelData);
        if (pixelData == null) {
            return;
        }
        int columns = Attribute.getSingleIntegerValueOrDefault(list, TagFromName.Columns, 0);
        int rows = Attribute.getSingleIntegerValueOrDefault(list, TagFromName.Rows, 0);
        int frames = Math.max(1, Attribute.getSingleIntegerValueOrDefault(list, TagFromName.NumberOfFrames, 1));
        for (int f = 0; f < frames; f++) {
            require(ts, pixelData, f, columns, rows);
        }
    }

    /** Width and height from the first frame header (SOF0–SOF15) of a JPEG stream. */
    private static long[] jpeg(byte[] data) throws ImageDecodeException {
        ImageHeader header;
        try {
            header = ImageHeader.peek(new ByteArrayInputStream(data));
        } catch (ImageDecodeException e) {
            throw new ImageDecodeException("DICOM JPEG frame: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new ImageDecodeException("DICOM JPEG frame unreadable: " + e.getMessage(), e);
        }
        if (header.format() != ImageFormat.JPEG) {
            throw new ImageDecodeException("DICOM frame in a JPEG transfer syntax is not a JPEG stream (it holds "
                    + header.format() + ")");
        }
        return new long[] {header.width(), header.height()};
    }

    /**
     * Width and height from the SIZ marker segment (ISO/IEC 15444-1 A.5.1) of a JPEG 2000 codestream, bare (SOC
     * first, as DICOM encapsulates it) or in a JP2 file's codestream box.
     */
    private static long[] jpeg2000(byte[] d) throws ImageDecodeException {
        int p = 0;
        if (d.length >= 12 && u32(d, 0) == 12 && u32(d, 4) == JP2_SIGNATURE_BOX) {
            p = codestreamBox(d);
        }
        if (p + 42 > d.length || u16(d, p) != 0xFF4F || u16(d, p + 2) != 0xFF51) {
            throw new ImageDecodeException("DICOM JPEG 2000 frame does not begin with the SOC and SIZ markers");
        }
        long xsiz = u32(d, p + 8) & 0xFFFFFFFFL;
        long ysiz = u32(d, p + 12) & 0xFFFFFFFFL;
        long xOffset = u32(d, p + 16) & 0xFFFFFFFFL;
        long yOffset = u32(d, p + 20) & 0xFFFFFFFFL;
        int components = u16(d, p + 40);
        if (xOffset >= xsiz || yOffset >= ysiz) {
            throw new ImageDecodeException("DICOM JPEG 2000 frame has an empty image area (SIZ " + xsiz + "x" + ysiz
                    + " from offset " + xOffset + "," + yOffset + ")");
        }
        if (components < 1 || components > 4) {
            throw new ImageDecodeException("DICOM JPEG 2000 frame with " + components + " components is not an "
                    + "image we read");
        }
        return new long[] {xsiz - xOffset, ysiz - yOffset};
    }

    /** Where the content of a JP2 file's contiguous codestream box starts. */
    private static int codestreamBox(byte[] d) throws ImageDecodeException {
        long p = 0;
        while (p + 8 <= d.length) {
            long length = u32(d, (int) p) & 0xFFFFFFFFL;
            int type = u32(d, (int) p + 4);
            int header = 8;
            if (length == 1 && p + 16 <= d.length) { // extended length
                length = (long) u32(d, (int) p + 8) << 32 | u32(d, (int) p + 12) & 0xFFFFFFFFL;
                header = 16;
            } else if (length == 0) { // the last box: to the end
                length = d.length - p;
            }
            if (type == JP2_CODESTREAM_BOX) {
                return (int) p + header;
            }
            if (length < header) {
                break;
            }
            p += length;
        }
        throw new ImageDecodeException("DICOM JPEG 2000 frame is a JP2 file without a codestream box");
    }

    private static int u16(byte[] d, int p) {
        return (d[p] & 0xFF) << 8 | d[p + 1] & 0xFF;
    }

    private static int u32(byte[] d, int p) {
        return (d[p] & 0xFF) << 24 | (d[p + 1] & 0xFF) << 16 | (d[p + 2] & 0xFF) << 8 | d[p + 3] & 0xFF;
    }
}
