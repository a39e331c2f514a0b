package org.medjava.viewer.image;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The committed sample images (testdata/samples) of the repository. */
public final class Samples {
    private Samples() {
    }

    public static Path path(String relative) {
        Path p = Path.of(System.getProperty("medjava.root", "..")).resolve("testdata/samples").resolve(relative);
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException("missing sample " + p + " (set -Dmedjava.root to the repository root)");
        }
        return p;
    }

    public static byte[] bytes(String relative) {
        try {
            return Files.readAllBytes(path(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static OpenedImage open(String relative) throws IOException {
        return OpenedImage.decode(new ImageOrigin.LocalFile(path(relative)), bytes(relative));
    }
}
