package org.medjava.store.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.testsupport.TestCallers;
import org.medjava.store.server.security.Role;
import org.medjava.store.server.security.UserStore;

class ResetPasswordTest {

    @TempDir
    Path data;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private Map<String, String> settings = Map.of();

    @BeforeEach
    void accounts() throws Exception {
        UserStore users = new UserStore(data.resolve("users.properties"));
        users.put("admin", "old-admin-pw".toCharArray(), Role.ADMIN, TestCallers.USER);
        users.put("reader1", "old-reader-pw".toCharArray(), Role.READER, TestCallers.USER);
    }

    private int run(String stdin, String... args) {
        ResetPassword tool = new ResetPassword(key -> Optional.ofNullable(settings.get(key)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return tool.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
    }

    private UserStore reread() throws Exception {
        return new UserStore(data.resolve("users.properties"));
    }

    @Test
    void aRandomPasswordIsPrintedOnceAndReplacesTheOldOneKeepingTheRole() throws Exception {
        assertThat(run("", "--data", data.toString(), "admin")).isEqualTo(ResetPassword.OK);
        Matcher m = Pattern.compile("new password for admin \\(admin\\): (\\S+)").matcher(out.toString());
        assertThat(m.find()).as(out.toString()).isTrue();
        UserStore users = reread();
        assertThat(users.authenticate("admin", m.group(1).toCharArray())).contains(Role.ADMIN);
        assertThat(users.authenticate("admin", "old-admin-pw".toCharArray())).isEmpty();
        assertThat(users.authenticate("reader1", "old-reader-pw".toCharArray())).as("others untouched")
                .contains(Role.READER);
    }

    @Test
    void stdinGivesThePasswordWhichIsNotEchoed() throws Exception {
        assertThat(run("chosen-secret-1\n", "--data", data.toString(), "reader1", "--stdin"))
                .isEqualTo(ResetPassword.OK);
        assertThat(out.toString()).contains("password of reader1 (reader) was changed").doesNotContain("chosen");
        assertThat(reread().authenticate("reader1", "chosen-secret-1".toCharArray())).contains(Role.READER);
    }

    @Test
    void aShortPasswordAnUnknownNameOrAMissingDataDirectoryChangeNothing() throws Exception {
        byte[] before = Files.readAllBytes(data.resolve("users.properties"));
        assertThat(run("short\n", "--data", data.toString(), "admin", "--stdin")).isEqualTo(ResetPassword.BAD_INPUT);
        assertThat(err.toString()).contains("at least 8 characters");
        assertThat(run("", "--data", data.toString(), "nobody")).isEqualTo(ResetPassword.BAD_INPUT);
        assertThat(err.toString()).contains("no account named nobody", "[admin, reader1]");
        assertThat(run("", "--data", data.resolve("elsewhere").toString(), "admin"))
                .isEqualTo(ResetPassword.BAD_INPUT);
        assertThat(err.toString()).contains("has no accounts", "MEDJAVA_DATA");
        assertThat(data.resolve("elsewhere")).doesNotExist();
        assertThat(run("", "admin")).as("no data directory given").isEqualTo(ResetPassword.BAD_INPUT);
        assertThat(err.toString()).contains("usage: ./medjava admin reset-password NAME");
        assertThat(Files.readAllBytes(data.resolve("users.properties"))).isEqualTo(before);
    }

    @Test
    void refusedWhileAStoreHoldsTheDataDirectory() throws Exception {
        byte[] before = Files.readAllBytes(data.resolve("users.properties"));
        try (DataDirectoryLock store = DataDirectoryLock.tryAcquire(data).orElseThrow()) {
            assertThat(run("", "--data", data.toString(), "admin")).isEqualTo(ResetPassword.STORE_RUNNING);
        }
        assertThat(err.toString()).contains("is running (pid " + ProcessHandle.current().pid() + ")",
                "nothing was changed", "./medjava stop", "PUT /admin/users/admin");
        assertThat(out.toString()).isEmpty();
        assertThat(Files.readAllBytes(data.resolve("users.properties"))).isEqualTo(before);
    }

    @Test
    void aClusterNeedsItsPostgresSettings() {
        settings = Map.of("medjava.cluster.enabled", "true");
        assertThat(run("", "--data", data.toString(), "admin")).isEqualTo(ResetPassword.BAD_INPUT);
        assertThat(err.toString()).contains("the accounts are in the cluster's PostgreSQL", "MEDJAVA_DB_URL");
    }
}
