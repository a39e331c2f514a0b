package org.medjava.store.repo;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.medjava.codec.ImageFormat;

/** The Content-Type a stored file is served with: by its extension, else by its first bytes. */
public final class MediaTypes {

    public static final String OCTET_STREAM = "application/octet-stream";

    private MediaTypes() {
    }

    public static String of(Path file) {
        return ImageFormat.fromFileName(file).map(ImageFormat::mediaType).orElseGet(() -> sniff(file));
    }

    private static String sniff(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return ImageFormat.sniff(in.readNBytes(ImageFormat.SNIFF_LENGTH)).map(ImageFormat::mediaType)
                    .orElse(OCTET_STREAM);
        } catch (IOException e) {
            return OCTET_STREAM;
        }
    }
}
