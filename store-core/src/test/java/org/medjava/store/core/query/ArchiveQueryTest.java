package org.medjava.store.core.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** fuzzymatching is true or false; anything else is refused rather than taken as false. */
class ArchiveQueryTest {

    @Test
    void fuzzyMatchingIsTrueOrFalse() {
        assertThat(ArchiveQuery.fuzzyMatching("true")).isTrue();
        assertThat(ArchiveQuery.fuzzyMatching("TRUE")).isTrue();
        assertThat(ArchiveQuery.fuzzyMatching("false")).isFalse();
        for (String bad : new String[] {"maybe", "", "1", "yes", null}) {
            assertThatThrownBy(() -> ArchiveQuery.fuzzyMatching(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("neither true nor false");
        }
    }
}
