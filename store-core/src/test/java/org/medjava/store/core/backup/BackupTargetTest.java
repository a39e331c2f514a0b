package org.medjava.store.core.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.StoreException;

/** Where a backup may be written: new or empty, absolute and plain, outside the data directory. */
class BackupTargetTest {

    @TempDir
    Path dir;
    Path data;

    @BeforeEach
    void dataDirectory() throws Exception {
        data = Files.createDirectories(dir.resolve("data/images"));
        data = data.getParent();
    }

    private static StoreException.Kind refusal(String requested, Path data) {
        try {
            BackupTarget.prepare(requested, data);
        } catch (BackupException e) {
            return e.kind();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError(requested + " was accepted");
    }

    @Test
    void createsANewDirectoryAndAcceptsAnEmptyOne() throws Exception {
        Path created = BackupTarget.prepare(dir.resolve("new").toString(), data);
        assertThat(created).isDirectory();
        assertThat(BackupTarget.prepare(created.toString(), data)).isEqualTo(created.toRealPath());
    }

    @Test
    void refusesPathTricks() throws Exception {
        assertThat(refusal(null, data)).isEqualTo(StoreException.Kind.BAD_REQUEST);
        assertThat(refusal(" ", data)).isEqualTo(StoreException.Kind.BAD_REQUEST);
        assertThat(refusal("relative/backup", data)).isEqualTo(StoreException.Kind.BAD_REQUEST);
        assertThat(refusal(dir + "/x/../backup", data)).isEqualTo(StoreException.Kind.BAD_REQUEST);
        assertThat(refusal(dir + "/./backup", data)).isEqualTo(StoreException.Kind.BAD_REQUEST);
        assertThat(refusal("/", data)).isEqualTo(StoreException.Kind.BAD_REQUEST);
        assertThat(refusal(dir + "/missing-parent/backup", data)).isEqualTo(StoreException.Kind.BAD_REQUEST);
        assertThat(dir.resolve("missing-parent")).doesNotExist();
    }

    @Test
    void refusesTheDataDirectoryItsInsideAndWhatContainsIt() throws Exception {
        assertThat(refusal(data.toString(), data)).isEqualTo(StoreException.Kind.BAD_REQUEST);
        assertThat(refusal(data.resolve("images/backup").toString(), data)).isEqualTo(StoreException.Kind.BAD_REQUEST);
        assertThat(refusal(data.resolve("backup").toString(), data)).isEqualTo(StoreException.Kind.BAD_REQUEST);
        assertThat(refusal(dir.toString(), data)).isEqualTo(StoreException.Kind.BAD_REQUEST);
        // through a link to the data directory
        Path link = Files.createSymbolicLink(dir.resolve("link"), data);
        assertThat(refusal(link.resolve("backup").toString(), data)).isEqualTo(StoreException.Kind.BAD_REQUEST);
        assertThat(data.resolve("backup")).doesNotExist();
    }

    @Test
    void refusesASymbolicLinkAsTheDirectory() throws Exception {
        Path real = Files.createDirectories(dir.resolve("real"));
        Path link = Files.createSymbolicLink(dir.resolve("to-real"), real);
        assertThat(refusal(link.toString(), data)).isEqualTo(StoreException.Kind.BAD_REQUEST);
    }

    @Test
    void aNonEmptyDirectoryOrAFileIsAConflictAndUntouched() throws Exception {
        Path full = Files.createDirectories(dir.resolve("full"));
        Files.writeString(full.resolve("keep.txt"), "mine");
        assertThat(refusal(full.toString(), data)).isEqualTo(StoreException.Kind.CONFLICT);
        assertThat(full.resolve("keep.txt")).hasContent("mine");
        Path file = Files.writeString(dir.resolve("file"), "x");
        assertThat(refusal(file.toString(), data)).isEqualTo(StoreException.Kind.CONFLICT);
    }
}
