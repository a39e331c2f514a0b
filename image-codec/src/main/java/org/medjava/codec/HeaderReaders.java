package org.medjava.codec;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.TagFromName;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/** The per-format header readers behind {@link ImageHeader#peek}; each reads only as far as it must. */
final class HeaderReaders {

    private HeaderReaders() {
    }

    /** Signature, then the IHDR chunk, which must come first. */
    static ImageHeader png(InputStream input) throws IOException {
        DataInputStream in = new DataInputStream(input);
        in.skipNBytes(8);
        int length = in.readInt();
        int type = in.readInt();
        if (type != 0x49484452 || length != 13) { // "IHDR"
            throw new ImageDecodeException("PNG does not begin with its IHDR header chunk");
        }
        long width = in.readInt() & 0xFFFFFFFFL;
        long height = in.readInt() & 0xFFFFFFFFL;
        int depth = in.readUnsignedByte();
        int colourType = in.readUnsignedByte();
        int channels = switch (colourType) {
            case 0, 3 -> 1; // grey, palette
            case 2 -> 3;
            case 4 -> 2;
            case 6 -> 4;
            default -> throw new ImageDecodeException("PNG colour type " + colourType + " does not exist");
        };
        if (depth != 1 && depth != 2 && depth != 4 && depth != 8 && depth != 16) {
            throw new ImageDecodeException("PNG bit depth " + depth + " does not exist");
        }
        requireSize("PNG", width, height, 0x7FFFFFFFL);
        return new ImageHeader(ImageFormat.PNG, width, height, 1, channels * (depth == 16 ? 2 : 1));
    }

    /**
     * The logical screen and the first image descriptor (the size of the frame a decoder makes), then the block
     * structure to the trailer to count the frames; pixel data are skipped sub-block by sub-block.
     */
    static ImageHeader gif(InputStream input) throws IOException {
        DataInputStream in = new DataInputStream(input);
        in.skipNBytes(6);
        long width = u16(in);
        long height = u16(in);
        int flags = in.readUnsignedByte();
        in.skipNBytes(2);
        if ((flags & 0x80) != 0) {
            in.skipNBytes(3L << ((flags & 7) + 1));
        }
        int frames = 0;
        try {
            while (true) {
                int block = in.read();
                if (block == 0x3B) {
                    break;
                }
                if (block == 0x21) {
                    in.skipNBytes(1);
                    skipSubBlocks(in);
                } else if (block == 0x2C) {
                    in.skipNBytes(4);
                    long frameWidth = u16(in);
                    long frameHeight = u16(in);
                    int local = in.readUnsignedByte();
                    if (frames++ == 0) {
                        width = Math.max(width, frameWidth);
                        height = Math.max(height, frameHeight);
                    }
                    if ((local & 0x80) != 0) {
                        in.skipNBytes(3L << ((local & 7) + 1));
                    }
                    in.skipNBytes(1);
                    skipSubBlocks(in);
                } else if (frames == 0) {
                    throw new ImageDecodeException(block < 0 ? "GIF holds no image" : "GIF block type 0x"
                            + Integer.toHexString(block) + " does not exist");
                } else {
                    break; // damage after the first frame: the decoder reads the first frame only, and judges
                }
            }
        } catch (EOFException e) {
            if (frames == 0) {
                throw e;
            }
        }
        requireSize("GIF", width, height, 0xFFFF);
        return new ImageHeader(ImageFormat.GIF, width, height, frames, 1);
    }

    /** Markers from SOI to the first frame header (SOFn). */
    static ImageHeader jpeg(InputStream input) throws IOException {
        DataInputStream in = new DataInputStream(input);
        in.skipNBytes(2);
        while (true) {
            int b = in.readUnsignedByte();
            if (b != 0xFF) {
                throw new ImageDecodeException("JPEG marker expected, found byte 0x" + Integer.toHexString(b));
            }
            int marker = in.readUnsignedByte();
            while (marker == 0xFF) { // fill bytes
                marker = in.readUnsignedByte();
            }
            if (marker == 0x01 || marker >= 0xD0 && marker <= 0xD7) {
                continue; // no length
            }
            if (marker == 0xD9 || marker == 0xDA) {
                throw new ImageDecodeException("JPEG has no frame header (SOF) before its scan");
            }
            int length = in.readUnsignedShort();
            if (length < 2) {
                throw new ImageDecodeException("JPEG segment length " + length + " is impossible");
            }
            boolean frameHeader = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8
                    && marker != 0xCC;
            if (!frameHeader) {
                in.skipNBytes(length - 2L);
                continue;
            }
            int precision = in.readUnsignedByte();
            long height = in.readUnsignedShort();
            long width = in.readUnsignedShort();
            int components = in.readUnsignedByte();
            if (height == 0) {
                throw new ImageDecodeException("JPEG height 0 (given later in a DNL marker) is not supported");
            }
            if (components < 1 || components > 4) {
                throw new ImageDecodeException("JPEG with " + components + " components is not an image we read");
            }
            requireSize("JPEG", width, height, 0xFFFF);
            return new ImageHeader(ImageFormat.JPEG, width, height, 1, components * (precision > 8 ? 2 : 1));
        }
    }

    /** "P6", width, height, maximum value, with comments. */
    static ImageHeader ppm(InputStream in) throws IOException {
        in.skipNBytes(2);
        long width = ppmNumber(in);
        long height = ppmNumber(in);
        long max = ppmNumber(in);
        if (max < 1 || max > 65535) {
            throw new ImageDecodeException("PPM maximum value " + max + " is out of range 1..65535");
        }
        requireSize("PPM", width, height, 0x7FFFFFFFL);
        return new ImageHeader(ImageFormat.PPM, width, height, 1, max > 255 ? 6 : 3);
    }

    /** The data set up to (not into) the pixel data: the pixel data are never read. */
    static ImageHeader dicom(InputStream in) throws IOException {
        // PixelMed recurses per sequence level: refuse what would overflow it
        in = DicomReading.get().checkedHeader(in);
        AttributeList list = new AttributeList();
        try {
            list.read(new DicomInputStream(in), TagFromName.PixelData);
        } catch (DicomException | RuntimeException e) {
            throw new ImageDecodeException("DICOM header does not parse", e);
        }
        long rows = number(list, TagFromName.Rows, -1);
        long columns = number(list, TagFromName.Columns, -1);
        if (rows < 0 || columns < 0) {
            throw new ImageDecodeException("DICOM object has no image (Rows or Columns missing)");
        }
        long frames = number(list, TagFromName.NumberOfFrames, 1);
        long bitsAllocated = number(list, TagFromName.BitsAllocated, 8);
        long samples = number(list, TagFromName.SamplesPerPixel, 1);
        if (frames < 1 || frames > Integer.MAX_VALUE || bitsAllocated < 1 || bitsAllocated > 64 || samples < 1
                || samples > 4) {
            throw new ImageDecodeException("DICOM image attributes out of range: Number of Frames " + frames
                    + ", Bits Allocated " + bitsAllocated + ", Samples per Pixel " + samples);
        }
        requireSize("DICOM", columns, rows, 0xFFFF);
        return new ImageHeader(ImageFormat.DICOM, columns, rows, (int) frames,
                (int) (samples * ((bitsAllocated + 7) / 8)));
    }

    private static long number(AttributeList list, AttributeTag tag, long absent) throws ImageDecodeException {
        Attribute a = list.get(tag);
        String text = a == null ? "" : a.getSingleStringValueOrEmptyString().trim();
        if (text.isEmpty()) {
            return absent;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new ImageDecodeException("DICOM " + tag + " is not a number: " + text);
        }
    }

    private static void requireSize(String format, long width, long height, long max) throws ImageDecodeException {
        if (width < 1 || height < 1 || width > max || height > max) {
            throw new ImageDecodeException(format + " declares " + width + "x" + height + " pixels; each side must"
                    + " be 1.." + max);
        }
    }

    private static int u16(DataInputStream in) throws IOException {
        int low = in.readUnsignedByte();
        return low | in.readUnsignedByte() << 8;
    }

    private static void skipSubBlocks(InputStream in) throws IOException {
        int size;
        while ((size = in.read()) > 0) {
            in.skipNBytes(size);
        }
        if (size < 0) {
            throw new EOFException();
        }
    }

    private static long ppmNumber(InputStream in) throws IOException {
        int c = in.read();
        while (c == '#' || Character.isWhitespace(c)) {
            if (c == '#') {
                while (c != '\n' && c >= 0) {
                    c = in.read();
                }
            }
            c = in.read();
        }
        long value = 0;
        int digits = 0;
        while (c >= '0' && c <= '9' && digits++ < 10) {
            value = value * 10 + c - '0';
            c = in.read();
        }
        if (digits == 0) {
            throw c < 0 ? new EOFException() : new ImageDecodeException("PPM header holds a non-number");
        }
        return value;
    }
}
