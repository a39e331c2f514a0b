package org.medjava.store.core.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The manifest of a backup: sha256sum's format, read back strictly, and the check of every file against it. */
class BackupManifestTest {

    @TempDir
    Path dir;

    private BackupManifest manifestOf(String... relativeAndContent) throws Exception {
        BackupManifest m = BackupManifest.empty();
        for (int i = 0; i < relativeAndContent.length; i += 2) {
            Path f = dir.resolve(relativeAndContent[i]);
            Files.createDirectories(f.getParent());
            Files.writeString(f, relativeAndContent[i + 1]);
            m.add(relativeAndContent[i], BackupManifest.sha256Of(f));
        }
        m.write(dir);
        return m;
    }

    @Test
    void isWrittenInSha256sumFormatSortedByPath() throws Exception {
        manifestOf("objects/b.dcm", "bee", "objects/a b.gif", "a");
        assertThat(Files.readAllLines(dir.resolve(BackupManifest.FILE))).containsExactly(
                "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb  objects/a b.gif",
                sumLine("bee", "objects/b.dcm"));
    }

    private static String sumLine(String content, String path) throws Exception {
        java.security.MessageDigest d = java.security.MessageDigest.getInstance("SHA-256");
        return java.util.HexFormat.of().formatHex(d.digest(content.getBytes(StandardCharsets.UTF_8))) + "  " + path;
    }

    @Test
    void readsBackWhatWasWrittenAndFindsAnIntactBackupIntact() throws Exception {
        BackupManifest written = manifestOf("objects/x/y.dcm", "one", "plugins/p.jar", "two");
        BackupManifest read = BackupManifest.read(dir);
        assertThat(read.checksums()).isEqualTo(written.checksums());
        assertThat(read.verify(dir)).isEmpty();
    }

    @Test
    void findsChangedMissingAndExtraFiles() throws Exception {
        manifestOf("objects/a.dcm", "one", "objects/b.dcm", "two", "objects/c.dcm", "three");
        Files.writeString(dir.resolve("objects/a.dcm"), "One");
        Files.delete(dir.resolve("objects/b.dcm"));
        Files.writeString(dir.resolve("objects/smuggled.dcm"), "x");

        assertThat(BackupManifest.read(dir).verify(dir)).containsExactlyInAnyOrder(
                "objects/a.dcm: checksum differs (the file was changed or damaged)",
                "objects/b.dcm: missing",
                "objects/smuggled.dcm: not in the manifest");
    }

    @Test
    void refusesMalformedLinesAndPathsLeavingTheBackup() throws Exception {
        String sum = "0".repeat(64);
        for (String bad : new String[] {"not a line", sum + " one-space", sum + "  ../outside", sum + "  /etc/passwd",
                sum + "  objects//x", sum + "  objects/./x", "Z".repeat(64) + "  objects/x"}) {
            Files.writeString(dir.resolve(BackupManifest.FILE), bad + "\n");
            assertThatThrownBy(() -> BackupManifest.read(dir)).as(bad).isInstanceOf(BackupException.class);
        }
        Files.writeString(dir.resolve(BackupManifest.FILE), sum + "  objects/x\n" + sum + "  objects/x\n");
        assertThatThrownBy(() -> BackupManifest.read(dir)).hasMessageContaining("twice");
    }

    @Test
    void aMissingManifestIsNotABackup() {
        assertThatThrownBy(() -> BackupManifest.read(dir)).isInstanceOf(BackupException.class)
                .hasMessageContaining("not a MedJava backup");
    }
}
