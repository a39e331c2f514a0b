package org.medjava.store.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.testkit.DcmtkTools;

/**
 * The tests run DCMTK's tools, not others of the same name that come first on PATH (pynetdicom's {@code storescu}
 * script rejects DCMTK's options: "storescu: error: unrecognized arguments: -nh").
 */
class DcmtkToolsTest {

    @TempDir
    Path dir;
    private Path fake;

    /** A {@code storescu} as pynetdicom installs it: another tool with the same name. */
    @BeforeEach
    void pynetdicomStorescu() throws Exception {
        fake = Files.writeString(dir.resolve("storescu"), """
                #!/bin/sh
                if [ "$1" = "--version" ]; then echo "storescu.py v2.0.2"; exit 0; fi
                echo "storescu: error: unrecognized arguments: $*" >&2
                exit 2
                """);
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void dcmtksToolIsFoundBehindAnotherOfTheSameNameFirstOnThePath() throws Exception {
        List<String> path = new ArrayList<>(List.of(dir.toString()));
        path.addAll(List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        path.add("/usr/bin");

        Path found = DcmtkTools.locate("storescu", null, path);

        assertThat(found).isNotEqualTo(fake);
        assertThat(Command.run(List.of(found.toString(), "--version")).assertOk().output()).startsWith("$dcmtk: ");
    }

    @Test
    void anotherToolOfTheSameNameIsRefusedWithWhatItIs() {
        assertThatThrownBy(() -> DcmtkTools.locate("storescu", null, List.of(dir.toString())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("DCMTK's storescu is not in")
                .hasMessageContaining("not DCMTK's: " + fake + " (its --version says: storescu.py v2.0.2)");
        assertThatThrownBy(() -> DcmtkTools.locate("storescu", dir.toString(), List.of("/usr/bin")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(DcmtkTools.DIR_PROPERTY)
                .hasMessageContaining("not DCMTK's: " + fake);
    }

    @Test
    void aConfiguredDirectoryIsWhereTheToolIsTaken() throws Exception {
        Path dcmtk = DcmtkTools.locate("storescu", null, List.of("/usr/bin", "/usr/local/bin"));

        assertThat(DcmtkTools.locate("storescu", dcmtk.getParent().toString(), List.of(dir.toString())))
                .isEqualTo(dcmtk);
    }

    @Test
    void commandsRunDcmtksBinaryNotTheFirstOfItsNameOnThePath() throws Exception {
        String storescu = Command.of("storescu", "-v").get(0);

        assertThat(Path.of(storescu)).isAbsolute();
        assertThat(Command.run(List.of(storescu, "--version")).assertOk().output()).startsWith("$dcmtk: storescu");
    }
}
