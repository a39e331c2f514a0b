package org.medjava.store.core.index;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How pg_dump is pointed at the index database: the JDBC URL as a libpq URI, without the JDBC options. */
class IndexBackupTest {

    @Test
    void aJdbcUrlBecomesALibpqUriWithoutItsOptions() {
        assertThat(IndexBackup.libpqUri("jdbc:postgresql://db.example:5433/medjava?ssl=true&password=x"))
                .isEqualTo("postgresql://db.example:5433/medjava");
        assertThat(IndexBackup.libpqUri("jdbc:postgresql://localhost/medjava")).isEqualTo("postgresql://localhost/medjava");
        assertThat(IndexBackup.libpqUri("jdbc:postgresql:medjava")).isEqualTo("postgresql://localhost/medjava");
    }
}
