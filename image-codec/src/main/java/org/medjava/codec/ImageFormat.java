package org.medjava.codec;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The raster formats the codecs read and write, with their media types and file name extensions. */
public enum ImageFormat {
    PPM("image/x-portable-pixmap", "ppm", "pnm"),
    PNG("image/png", "png"),
    GIF("image/gif", "gif"),
    JPEG("image/jpeg", "jpg", "jpeg"),
    /** DICOM Part 10 files (preamble and file meta information); read only, see {@code org.medjava.codec.dicom}. */
    DICOM("application/dicom", "dcm");

    /** How many leading bytes {@link #sniff} needs to recognise every format (DICOM's "DICM" is at 128..131). */
    public static final int SNIFF_LENGTH = 132;

    private static final ImageFormat[] VALUES = values();

    private final String mediaType;
    private final List<String> extensions;
    private final Optional<ImageFormat> asOptional = Optional.of(this);

    ImageFormat(String mediaType, String... extensions) {
        this.mediaType = mediaType;
        this.extensions = List.of(extensions);
    }

    public String mediaType() {
        return mediaType;
    }

    public List<String> extensions() {
        return extensions;
    }

    /** By file name extension, case-insensitive. */
    public static Optional<ImageFormat> fromFileName(Path file) {
        return fromFileName(file.getFileName().toString());
    }

    /** By the extension of a file name or path ("a/b.DCM"), case-insensitive; asked on every read, so cheap. */
    public static Optional<ImageFormat> fromFileName(String name) {
        int dot = name.lastIndexOf('.');
        if (dot < 0 || name.indexOf('/', dot) >= 0) {
            return Optional.empty();
        }
        int length = name.length() - dot - 1;
        for (ImageFormat format : VALUES) {
            for (String ext : format.extensions) {
                if (ext.length() == length && name.regionMatches(true, dot + 1, ext, 0, length)) {
                    return format.asOptional;
                }
            }
        }
        return Optional.empty();
    }

    /**
     * By the first bytes of the content (magic numbers), whatever the file is called; give it
     * {@link #SNIFF_LENGTH} bytes (or all there are). DICOM is recognised by "DICM" at offset 128 only: datasets
     * without the Part 10 preamble and file meta information are not recognised (nor read).
     */
    public static Optional<ImageFormat> sniff(byte[] head) {
        if (startsWith(head, 'P', '6')) {
            return Optional.of(PPM);
        }
        if (startsWith(head, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A)) {
            return Optional.of(PNG);
        }
        if (startsWith(head, 'G', 'I', 'F', '8')) {
            return Optional.of(GIF);
        }
        if (startsWith(head, 0xFF, 0xD8, 0xFF)) {
            return Optional.of(JPEG);
        }
        if (head.length >= 132 && head[128] == 'D' && head[129] == 'I' && head[130] == 'C' && head[131] == 'M') {
            return Optional.of(DICOM);
        }
        return Optional.empty();
    }

    private static boolean startsWith(byte[] head, int... magic) {
        if (head.length < magic.length) {
            return false;
        }
        for (int i = 0; i < magic.length; i++) {
            if ((head[i] & 0xFF) != magic[i]) {
                return false;
            }
        }
        return true;
    }

    /** Names of all formats with their extensions, for error messages. */
    public static String describeAll() {
        StringBuilder sb = new StringBuilder();
        for (ImageFormat f : values()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(f.name()).append(" (.")
                    .append(String.join(", .", f.extensions)).append(')');
        }
        return sb.toString();
    }
}
