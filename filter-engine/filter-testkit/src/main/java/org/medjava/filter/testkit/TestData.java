package org.medjava.filter.testkit;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the repository's shared fixtures are: {@code testdata/} and the sibling {@code ../shared/testdata/}. */
public final class TestData {
    private TestData() {
    }

    /** The repository root: system property {@code medjava.root} (set by the build), else found from the cwd. */
    public static Path repositoryRoot() {
        String property = System.getProperty("medjava.root");
        if (property != null && !property.isBlank()) {
            return Path.of(property).toAbsolutePath().normalize();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("testdata/cases.csv"))) {
                return dir;
            }
        }
        throw new IllegalStateException("cannot find the repository root: set -Dmedjava.root");
    }

    /** {@code testdata/}: cases.csv, inputs/, expected/. */
    public static Path goldenDir() {
        return repositoryRoot().resolve("testdata");
    }

    /** Where tests write what a person should look at after a failure (diff images). */
    public static Path reportDir() {
        Path dir = Path.of("target", "golden-diffs").toAbsolutePath();
        try {
            Files.createDirectories(dir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return dir;
    }
}
