package org.medjava.store.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The committed sample images (testdata/samples: public, de-identified). */
public final class Samples {

    private Samples() {
    }

    public static Path dir() {
        return Path.of(System.getProperty("medjava.root", "..")).resolve("testdata/samples");
    }

    public static Path dicom(String name) {
        return dir().resolve("dicom").resolve(name);
    }

    /** The corpus of every storage SOP class family (testdata/sop-classes, see its README). */
    public static Path sopClass(String name) {
        return dir().resolveSibling("sop-classes").resolve(name);
    }

    public static Path gif(String name) {
        return dir().resolve("gif").resolve(name);
    }

    public static byte[] bytes(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
