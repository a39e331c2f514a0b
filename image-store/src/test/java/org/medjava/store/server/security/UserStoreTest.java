package org.medjava.store.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.medjava.store.core.testsupport.TestCallers;

/**
 * {@link UserStore}: accounts in an owner-only properties file. {@code put} hashes with the production iteration
 * count (a few hundred ms), so most tests start from a file written with cheap hashes instead.
 */
class UserStoreTest {

    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve("users.properties");
    }

    @Test
    void emptyWhenThereIsNoFile() throws IOException {
        UserStore store = new UserStore(file());

        assertThat(store.isEmpty()).isTrue();
        assertThat(store.roles()).isEmpty();
        assertThat(store.authenticate("anyone", "whatever-pw".toCharArray())).isEmpty();
        assertThat(file()).doesNotExist();
    }

    @Test
    void putThenAuthenticate() throws IOException {
        UserStore store = new UserStore(file());

        store.put("alice", "alice-password".toCharArray(), Role.UPLOADER, TestCallers.USER);

        assertThat(store.isEmpty()).isFalse();
        assertThat(store.roles()).containsExactlyEntriesOf(java.util.Map.of("alice", Role.UPLOADER));
        assertThat(store.authenticate("alice", "alice-password".toCharArray())).contains(Role.UPLOADER);
        assertThat(store.authenticate("alice", "alice-passworD".toCharArray())).isEmpty();
        assertThat(store.authenticate("bob", "alice-password".toCharArray())).isEmpty();
        // a remembered success is still tied to the right password
        assertThat(store.authenticate("alice", "alice-password".toCharArray())).contains(Role.UPLOADER);
        assertThat(store.authenticate("alice", "wrong-password".toCharArray())).isEmpty();
    }

    @Test
    void fileIsOwnerOnlyAndHoldsNoPassword() throws IOException {
        UserStore store = new UserStore(file());

        store.put("alice", "Sup3r-secret!".toCharArray(), Role.ADMIN, TestCallers.USER);

        assertThat(Files.getPosixFilePermissions(file()))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        String content = Files.readString(file(), StandardCharsets.UTF_8);
        assertThat(content).doesNotContain("Sup3r-secret!").contains("alice=admin\\:pbkdf2-sha256$");
        assertThat(dir.resolve("users.properties.tmp")).doesNotExist();
    }

    @Test
    void permissionsStayOwnerOnlyAfterEveryChange() throws IOException {
        writeUsers(new String[] {"alice", "admin", "alice-password"}, new String[] {"bob", "reader", "bob-password"});
        UserStore store = new UserStore(file());

        store.remove("bob", TestCallers.USER);

        assertThat(Files.getPosixFilePermissions(file()))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        assertThat(Files.readString(file())).doesNotContain("bob");
    }

    @Test
    void accountsAreReloadedFromTheFile() throws IOException {
        UserStore first = new UserStore(file());
        first.put("carol", "carol-password".toCharArray(), Role.READER, TestCallers.USER);

        UserStore reloaded = new UserStore(file());

        assertThat(reloaded.roles()).containsEntry("carol", Role.READER).hasSize(1);
        assertThat(reloaded.authenticate("carol", "carol-password".toCharArray())).contains(Role.READER);
        assertThat(reloaded.authenticate("carol", "not-carols-pw".toCharArray())).isEmpty();
    }

    @Test
    void readsAFileWithHashesOfAnyIterationCount() throws IOException {
        writeUsers(new String[] {"alice", "admin", "alice-password"}, new String[] {"bob", "READER", "bob-password"});

        UserStore store = new UserStore(file());

        assertThat(store.roles()).containsEntry("alice", Role.ADMIN).containsEntry("bob", Role.READER);
        assertThat(store.authenticate("alice", "alice-password".toCharArray())).contains(Role.ADMIN);
        assertThat(store.authenticate("bob", "bob-password".toCharArray())).contains(Role.READER);
        assertThat(store.authenticate("bob", "alice-password".toCharArray())).isEmpty();
    }

    @Test
    void removeDeletesTheAccountHereAndOnDisk() throws IOException {
        writeUsers(new String[] {"alice", "admin", "alice-password"}, new String[] {"bob", "reader", "bob-password"});
        UserStore store = new UserStore(file());
        assertThat(store.authenticate("bob", "bob-password".toCharArray())).contains(Role.READER); // now remembered

        assertThat(store.remove("bob", TestCallers.USER)).isTrue();
        assertThat(store.remove("bob", TestCallers.USER)).isFalse();

        assertThat(store.authenticate("bob", "bob-password".toCharArray())).isEmpty();
        assertThat(store.roles()).containsOnlyKeys("alice");
        assertThat(new UserStore(file()).roles()).containsOnlyKeys("alice");
    }

    @Test
    void changingThePasswordStopsTheOldOne() throws IOException {
        writeUsers(new String[] {"alice", "uploader", "old-password"});
        UserStore store = new UserStore(file());
        assertThat(store.authenticate("alice", "old-password".toCharArray())).contains(Role.UPLOADER); // remembered

        store.put("alice", "new-password".toCharArray(), Role.UPLOADER, TestCallers.USER);

        assertThat(store.authenticate("alice", "old-password".toCharArray())).isEmpty();
        assertThat(store.authenticate("alice", "new-password".toCharArray())).contains(Role.UPLOADER);
        assertThat(new UserStore(file()).authenticate("alice", "old-password".toCharArray())).isEmpty();
    }

    @Test
    void changingTheRoleTakesEffectAtOnce() throws IOException {
        writeUsers(new String[] {"alice", "admin", "alice-password"});
        UserStore store = new UserStore(file());
        assertThat(store.authenticate("alice", "alice-password".toCharArray())).contains(Role.ADMIN);

        store.put("alice", "alice-password".toCharArray(), Role.READER, TestCallers.USER);

        assertThat(store.authenticate("alice", "alice-password".toCharArray())).contains(Role.READER);
    }

    @Test
    void shortPasswordsAreRejected() throws IOException {
        UserStore store = new UserStore(file());

        assertThatThrownBy(() -> store.put("alice", "1234567".toCharArray(), Role.READER, TestCallers.USER))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 8 characters");
        assertThat(store.isEmpty()).isTrue();
        assertThat(file()).doesNotExist();
    }

    @Test
    void overlongPasswordsAreRejectedAndNeverHashedAtLogin() throws IOException {
        UserStore store = new UserStore(file());
        char[] huge = "p".repeat(UserStore.MAX_PASSWORD + 1).toCharArray();

        assertThatThrownBy(() -> store.put("alice", huge, Role.READER, TestCallers.USER))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 1024 characters");
        assertThat(store.isEmpty()).isTrue();
        store.put("alice", "p".repeat(UserStore.MAX_PASSWORD).toCharArray(), Role.READER, TestCallers.USER);
        assertThat(store.authenticate("alice", "p".repeat(UserStore.MAX_PASSWORD).toCharArray()))
                .contains(Role.READER);
        assertThat(store.authenticate("alice", huge)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a b", "a/b", "a=b", "a:b", "alice\n", "#comment", "Müller",
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"})
    void badNamesAreRejected(String name) throws IOException {
        UserStore store = new UserStore(file());

        assertThatThrownBy(() -> store.put(name, "long-enough-pw".toCharArray(), Role.READER, TestCallers.USER))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("user names are 1 to 64");
        assertThat(store.isEmpty()).isTrue();
        assertThat(file()).doesNotExist();
    }

    @Test
    void namesMayUseLettersDigitsDotsDashesAndUnderscores() throws IOException {
        writeUsers();
        UserStore store = new UserStore(file());
        String name = "Dr.J_Smith-2" + "x".repeat(52); // 64 characters

        store.put(name, "long-enough-pw".toCharArray(), Role.READER, TestCallers.USER);

        assertThat(new UserStore(file()).roles()).containsOnlyKeys(name);
    }

    @Test
    void anUnknownNameIsCheckedAgainstAHashLikeAKnownOne() throws IOException {
        writeUsers(new String[] {"alice", "uploader", "alice-password"});
        UserStore store = new UserStore(file());
        java.util.List<String> checked = new java.util.ArrayList<>();
        store.verifyWith((password, hash) -> {
            checked.add(hash);
            return PasswordHasher.verify(password, hash);
        });

        assertThat(store.authenticate("alice", "wrong-password".toCharArray())).isEmpty();
        assertThat(store.authenticate("nobody", "wrong-password".toCharArray())).isEmpty();
        assertThat(store.authenticate("someone-else", "other-password".toCharArray())).isEmpty();

        // one hash check each, the unknown names against the same dummy hash made with the production parameters
        assertThat(checked).hasSize(3);
        assertThat(checked.get(1)).isEqualTo(UserStore.UnknownUser.HASH).isEqualTo(checked.get(2))
                .startsWith("pbkdf2-sha256$" + PasswordHasher.ITERATIONS + "$");
        assertThat(checked.get(0)).isEqualTo(store.user("alice").orElseThrow().passwordHash());
    }

    @Test
    void projectsAreKeptWithTheAccountAndSurviveAReload() throws IOException {
        UserStore store = new UserStore(file());
        java.util.List<String> said = new java.util.ArrayList<>();
        store.auditTo(event -> said.add(event.objects().get(0).description()));

        store.put("alice", "alice-password".toCharArray(), Role.READER, java.util.List.of("neuro", "cardiology"),
                TestCallers.USER);

        assertThat(store.user("alice").orElseThrow().projects()).containsExactly("cardiology", "neuro");
        assertThat(Files.readString(file(), StandardCharsets.UTF_8))
                .containsPattern("alice=reader\\\\:pbkdf2-sha256\\$[^\\n]*\\\\:cardiology,neuro\\n");
        UserStore reloaded = new UserStore(file());
        assertThat(reloaded.user("alice").orElseThrow().projects()).containsExactly("cardiology", "neuro");
        assertThat(reloaded.authenticate("alice", "alice-password".toCharArray())).contains(Role.READER);
        assertThat(reloaded.authenticatedUser("alice", "alice-password".toCharArray()).orElseThrow().projects())
                .containsExactly("cardiology", "neuro");
        assertThat(said).containsExactly("create, role reader, projects cardiology neuro");
    }

    @Test
    void aChangeWithoutProjectsKeepsThemAndAnEmptyListRemovesThem() throws IOException {
        writeUsers(new String[] {"alice", "reader", "alice-password"});
        UserStore store = new UserStore(file());
        store.put("alice", "alice-password".toCharArray(), Role.READER, java.util.List.of("cardiology"),
                TestCallers.USER);

        // a password reset, an older client
        store.put("alice", "new-password".toCharArray(), Role.UPLOADER, TestCallers.USER);

        assertThat(new UserStore(file()).user("alice").orElseThrow().projects()).containsExactly("cardiology");
        store.put("alice", "new-password".toCharArray(), Role.UPLOADER, java.util.List.of(), TestCallers.USER);
        assertThat(new UserStore(file()).user("alice").orElseThrow().projects()).isEmpty();
        assertThat(Files.readString(file(), StandardCharsets.UTF_8)).as("written as before projects existed")
                .containsPattern("alice=uploader\\\\:pbkdf2-sha256\\$[^:\\n]*\\n");
    }

    @Test
    void entriesWrittenBeforeProjectsExistedLoadWithoutProjects() throws IOException {
        writeUsers(new String[] {"alice", "admin", "alice-password"}, new String[] {"bob", "reader", "bob-password"});

        UserStore store = new UserStore(file());
        store.put("carol", "carol-password".toCharArray(), Role.READER, java.util.List.of("neuro"), TestCallers.USER);

        assertThat(store.user("bob").orElseThrow().projects()).isEmpty();
        assertThat(store.authenticate("bob", "bob-password".toCharArray())).contains(Role.READER);
        Properties p = new Properties();
        try (java.io.Reader in = Files.newBufferedReader(file(), StandardCharsets.UTF_8)) {
            p.load(in);
        }
        assertThat(p.getProperty("bob")).as("the others' entries unchanged").matches("reader:pbkdf2-sha256\\$[^:]*");
        assertThat(p.getProperty("carol")).endsWith(":neuro");
        // an older version splits role:hash and takes "hash:neuro" for the hash: no password matches it there
        assertThat(PasswordHasher.verify("carol-password".toCharArray(), p.getProperty("carol").split(":", 2)[1]))
                .as("fails closed on an older node").isFalse();
        assertThat(PasswordHasher.verify("carol-password".toCharArray(), p.getProperty("carol").split(":")[1]))
                .isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a b", "a,b", "a:b", "Müller",
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"})
    void projectsThatAreNoLabelNamesAreRejected(String project) throws IOException {
        UserStore store = new UserStore(file());

        assertThatThrownBy(() -> store.put("alice", "long-enough-pw".toCharArray(), Role.READER,
                java.util.List.of("cardiology", project),
                        TestCallers.USER)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 to 64 letters, digits, _ or -");
        assertThat(store.isEmpty()).isTrue();
        assertThat(file()).doesNotExist();
    }

    @Test
    void aStoredEntryWithABadProjectIsReportedWithItsName() throws IOException {
        writeUsers(new String[] {"alice", "reader", "alice-password"});
        Properties p = new Properties();
        try (java.io.Reader in = Files.newBufferedReader(file(), StandardCharsets.UTF_8)) {
            p.load(in);
        }
        p.setProperty("alice", p.getProperty("alice") + ":cardio logy");
        try (Writer out = Files.newBufferedWriter(file(), StandardCharsets.UTF_8)) {
            p.store(out, null);
        }

        assertThatThrownBy(() -> new UserStore(file())).isInstanceOf(IOException.class)
                .hasMessageContaining("the entry for alice").hasMessageContaining("cardio logy");
    }

    /** Writes the users file directly, with cheap hashes: each account is {name, role, password}. */
    private void writeUsers(String[]... accounts) throws IOException {
        Properties p = new Properties();
        for (String[] a : accounts) {
            p.setProperty(a[0], a[1] + ":" + PasswordHasher.hash(a[2].toCharArray(), 1_000));
        }
        Files.createFile(file(), java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        try (Writer out = Files.newBufferedWriter(file(), StandardCharsets.UTF_8)) {
            p.store(out, null);
        }
    }
}
