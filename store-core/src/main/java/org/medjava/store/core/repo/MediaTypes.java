package org.medjava.store.core.repo;

import java.util.function.Supplier;
import org.medjava.codec.ImageFormat;

/** The Content-Type a stored file is served with: by its extension, else by its first bytes. */
public final class MediaTypes {

    public static final String OCTET_STREAM = "application/octet-stream";

    private MediaTypes() {
    }

    /** @param head the file's first bytes, read only when the name does not tell */
    public static String of(String name, Supplier<byte[]> head) {
        return ImageFormat.fromFileName(name).map(ImageFormat::mediaType)
                .orElseGet(() -> ImageFormat.sniff(head.get()).map(ImageFormat::mediaType).orElse(OCTET_STREAM));
    }
}
