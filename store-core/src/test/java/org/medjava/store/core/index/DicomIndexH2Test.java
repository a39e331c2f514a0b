package org.medjava.store.core.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The {@link DicomIndex} contract on an embedded H2 file database (a fresh directory per test). */
class DicomIndexH2Test extends DicomIndexContract {
    private int databases;

    @Override
    IndexDatabase newDatabase() {
        return IndexDatabase.h2(tmp.resolve("db" + databases++));
    }

    @Test
    void theDatabaseIsAFileInTheGivenDirectory() {
        assertThat(database.url()).startsWith("jdbc:h2:file:").endsWith("/index");
        assertThat(Files.exists(Path.of(database.url().substring("jdbc:h2:file:".length()) + ".mv.db"))).isTrue();
    }

    @Test
    void aDatabaseThatCannotBeCreatedFailsWithTheUrl() throws IOException {
        Path blocked = Files.writeString(tmp.resolve("not-a-directory"), "a file where the directory should be");
        IndexDatabase db = IndexDatabase.h2(blocked.resolve("db"));
        assertThatThrownBy(() -> new DicomIndex(db)).isInstanceOf(IndexException.class)
                .hasMessageContaining("cannot open the DICOM index database " + db.url());
    }
}
