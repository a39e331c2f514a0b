package org.medjava.store.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link Role}: each role includes the ones below it. */
class RoleTest {

    @Test
    void groupsIncludeTheLowerRoles() {
        assertThat(Role.READER.groups()).containsExactly("reader");
        assertThat(Role.UPLOADER.groups()).containsExactlyInAnyOrder("reader", "uploader");
        assertThat(Role.ADMIN.groups()).containsExactlyInAnyOrder("reader", "uploader", "admin");
    }

    @Test
    void adminContainsUploaderContainsReader() {
        assertThat(Role.ADMIN.groups()).containsAll(Role.UPLOADER.groups());
        assertThat(Role.UPLOADER.groups()).containsAll(Role.READER.groups());
        assertThat(Role.READER.groups()).doesNotContain("uploader", "admin");
        assertThat(Role.UPLOADER.groups()).doesNotContain("admin");
    }

    @Test
    void idsAreLowerCase() {
        assertThat(Role.READER.id()).isEqualTo("reader");
        assertThat(Role.UPLOADER.id()).isEqualTo("uploader");
        assertThat(Role.ADMIN.id()).isEqualTo("admin");
    }

    @Test
    void parseIgnoresCaseAndSpaces() {
        for (Role r : Role.values()) {
            assertThat(Role.parse(r.id())).isEqualTo(r);
            assertThat(Role.parse(" " + r.name() + " ")).isEqualTo(r);
        }
    }

    @Test
    void unknownRoleNamesTheChoices() {
        assertThatThrownBy(() -> Role.parse("root")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"root\"").hasMessageContaining("reader, uploader, admin");
        assertThatThrownBy(() -> Role.parse("")).isInstanceOf(IllegalArgumentException.class);
    }
}
