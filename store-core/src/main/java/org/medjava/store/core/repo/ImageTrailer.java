package org.medjava.store.core.repo;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.medjava.codec.ImageFormat;

/**
 * Whether a PNG, GIF or JPEG file ends as its format ends: PNG with its IEND chunk, GIF with its trailer (0x3B),
 * JPEG with its end-of-image marker (FF D9). ImageIO decodes a JPEG cut short (filling the rest grey) and a PNG cut
 * after its last image data without a word, so a truncated upload would otherwise be stored. Zero bytes after the
 * end (padding some writers add) are allowed.
 */
final class ImageTrailer {

    private static final int TAIL = 64;

    private ImageTrailer() {
    }

    /** A reason when the file does not end as {@code format} ends, else null. */
    static String problem(ImageFormat format, Path file) throws IOException {
        byte[] tail;
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            int n = (int) Math.min(TAIL, f.length());
            tail = new byte[n];
            f.seek(f.length() - n);
            f.readFully(tail);
        }
        int end = tail.length;
        while (end > 0 && tail[end - 1] == 0) {
            end--;
        }
        return switch (format) {
            case PNG -> end >= 8 && new String(tail, end - 8, 4, StandardCharsets.ISO_8859_1).equals("IEND") ? null
                    : "the PNG file is truncated (it does not end with its IEND chunk)";
            case GIF -> end >= 1 && tail[end - 1] == 0x3B ? null
                    : "the GIF file is truncated (it does not end with its trailer)";
            case JPEG -> end >= 2 && (tail[end - 2] & 0xFF) == 0xFF && (tail[end - 1] & 0xFF) == 0xD9 ? null
                    : "the JPEG file is truncated (it does not end with its end-of-image marker)";
            default -> null;
        };
    }
}
