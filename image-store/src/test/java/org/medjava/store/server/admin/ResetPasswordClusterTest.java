package org.medjava.store.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.cluster.ClusterDatabase;
import org.medjava.store.core.cluster.SharedState;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.testsupport.TestCallers;
import org.medjava.store.server.security.Role;
import org.medjava.store.server.security.SharedAccounts;
import org.medjava.store.server.security.UserStore;
import org.medjava.store.testkit.peers.LocalPostgres;

/** A cluster's accounts live in its PostgreSQL: a reset there reaches a running node at once, without a restart. */
class ResetPasswordClusterTest {

    @TempDir
    Path data;

    @Test
    void theNewPasswordIsLiveOnARunningNode() throws Exception {
        try (LocalPostgres postgres = LocalPostgres.start();
             ClusterDatabase db = new ClusterDatabase(IndexDatabase.of(postgres.jdbcUrl(), postgres.user(),
                     postgres.password()));
             SharedState node = new SharedState(db)) {
            UserStore running = new UserStore(new SharedAccounts(node));
            running.put("admin", "old-admin-pw".toCharArray(), Role.ADMIN, TestCallers.USER);
            Map<String, String> settings = Map.of("medjava.cluster.enabled", "true",
                    "medjava.db.url", postgres.jdbcUrl(), "medjava.db.user", postgres.user(),
                    "medjava.db.password", postgres.password());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int status = new ResetPassword(key -> Optional.ofNullable(settings.get(key)),
                    new PrintStream(out, true, StandardCharsets.UTF_8), System.err)
                    .run(new String[] {"--data", data.toString(), "admin"}, new ByteArrayInputStream(new byte[0]));

            assertThat(status).isEqualTo(ResetPassword.OK);
            Matcher m = Pattern.compile("new password for admin \\(admin\\): (\\S+)").matcher(out.toString());
            assertThat(m.find()).as(out.toString()).isTrue();
            assertThat(out.toString()).contains("every running node applies it at once");
            long deadline = System.nanoTime() + 20_000_000_000L; // told by NOTIFY, or by its 2 s poll at worst
            while (running.authenticate("admin", m.group(1).toCharArray()).isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(running.authenticate("admin", m.group(1).toCharArray())).contains(Role.ADMIN);
            assertThat(running.authenticate("admin", "old-admin-pw".toCharArray())).isEmpty();
        }
    }
}
