package org.medjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./medjava filter} run as a user runs it: from a directory of their own, with relative paths, through the
 * launcher at the checkout's root (which works in the checkout) on the JAR this build packaged. One JVM start.
 */
class LauncherIT {
    @TempDir
    Path dir;

    @Test
    void relativePathsAreTheCallersAndTheOutputFollowsTheUmask() throws Exception {
        Path root = Path.of(System.getProperty("medjava.root")).toAbsolutePath();
        Files.copy(MainTest.sample("ct-small.gif"), dir.resolve("in.gif"));
        assertThat(root.resolve("out.png")).as("a stray file in the checkout").doesNotExist();

        // MEDJAVA_NO_BUILD: never a build (mvn install) from a test; the JAR is there in the integration-test phase
        ProcessBuilder launcher = new ProcessBuilder("bash", "-c", "umask 022 && exec \"$0\" filter blur in.gif out.png",
                root.resolve("medjava").toString()).directory(dir.toFile());
        launcher.environment().put("MEDJAVA_NO_BUILD", "1");
        Path stdout = Files.createTempFile("launcher", ".out");
        Path stderr = Files.createTempFile("launcher", ".err");
        Process process = launcher.redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        assertThat(process.waitFor(3, TimeUnit.MINUTES)).isTrue();
        String out = read(stdout);
        String err = read(stderr);

        assertThat(process.exitValue()).as(out + err).isZero();
        assertThat(out).contains("in.gif: ").contains("wrote out.png");
        assertThat(err).as("nothing on stderr (PixelMed's canDecodeInput line was)").isEmpty();
        assertThat(dir.resolve("out.png")).isRegularFile();
        assertThat(root.resolve("out.png")).doesNotExist();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("out.png"))))
                .isEqualTo("rw-r--r--");
    }

    private static String read(Path file) throws IOException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } finally {
            Files.delete(file);
        }
    }
}
