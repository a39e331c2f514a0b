package org.medjava.store.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.medjava.store.core.testsupport.MovableClock;
import org.medjava.store.core.testsupport.TestCallers;

/**
 * {@link Sessions}: login, the idle timeout with its sliding renewal, the absolute limit, logout, and the account
 * fingerprint that ends the sessions of a changed or removed account. Time is a clock the test moves.
 */
class SessionsTest {

    static final Duration IDLE = Duration.ofMinutes(30);
    static final Duration MAX = Duration.ofHours(12);

    /** Accounts in memory, with cheap hashes. */
    static final class Book implements AccountBook {
        final Map<String, String> entries = new TreeMap<>();

        @Override
        public Map<String, String> load() {
            return new TreeMap<>(entries);
        }

        @Override
        public void put(String name, String entry, Map<String, String> all) {
            entries.put(name, entry);
        }

        @Override
        public boolean putIfAbsent(String name, String entry, Map<String, String> all) {
            return entries.putIfAbsent(name, entry) == null;
        }

        @Override
        public void remove(String name, Map<String, String> all) {
            entries.remove(name);
        }
    }

    MovableClock clock;
    UserStore users;
    Revocations revocations;
    Sessions sessions;

    @BeforeEach
    void setUp() throws IOException {
        Book book = new Book();
        book.entries.put("rita", "reader:" + PasswordHasher.hash("rita-pass-1".toCharArray(), 1000));
        book.entries.put("ulf", "uploader:" + PasswordHasher.hash("ulf-pass-1".toCharArray(), 1000));
        book.entries.put("carla", "reader:" + PasswordHasher.hash("carla-pass-1".toCharArray(), 1000)
                + ":cardiology,neuro");
        clock = new MovableClock(Instant.parse("2026-03-01T08:00:00Z"));
        users = new UserStore(book);
        revocations = Revocations.local();
        sessions = new Sessions(SessionCodecTest.KEY, users, revocations, IDLE, MAX, clock);
    }

    @Test
    void aShareLinksSessionReadsAsAReaderWhileItsShareIsLiveAndIsNeverRenewed() {
        java.util.concurrent.atomic.AtomicReference<String> problem = new java.util.concurrent.atomic.AtomicReference<>();
        Sessions shared = new Sessions(SessionCodecTest.KEY, users, revocations, IDLE, MAX, clock,
                (id, now) -> id.equals("AAAAbbbbCCCCddddEEEEffff") ? problem.get() : "unknown");
        Sessions.Issued issued = shared.share("AAAAbbbbCCCCddddEEEEffff", clock.instant().plus(Duration.ofDays(7)));
        assertThat(issued.role()).isEqualTo(Role.READER);
        assertThat(issued.token().expires()).as("the absolute limit first").isEqualTo(clock.instant().plus(MAX));

        clock.advance(IDLE.dividedBy(2).plusSeconds(1));
        Sessions.Checked checked = shared.check(issued.text(), true);
        assertThat(checked.valid()).isTrue();
        assertThat(checked.role()).isEqualTo(Role.READER);
        assertThat(checked.renewed()).isNull();

        problem.set("the share link was revoked");
        assertThat(shared.check(issued.text(), true).problem()).isEqualTo("the share link was revoked");
        assertThat(sessions.check(issued.text(), true).valid()).as("a store without share links").isFalse();

        Sessions.Issued shortLived = shared.share("AAAAbbbbCCCCddddEEEEffff", clock.instant().plusSeconds(30));
        assertThat(shortLived.token().expires()).isEqualTo(clock.instant().plusSeconds(30));
    }

    @Test
    void aLoginGivesATokenForTheIdleWindowWithTheAccountsRole() {
        Sessions.Issued issued = sessions.login("ulf", "ulf-pass-1".toCharArray()).orElseThrow();
        assertThat(issued.role()).isEqualTo(Role.UPLOADER);
        assertThat(issued.token().user()).isEqualTo("ulf");
        assertThat(issued.token().expires()).isEqualTo(clock.instant().plus(IDLE));
        Sessions.Checked checked = sessions.check(issued.text(), true);
        assertThat(checked.valid()).isTrue();
        assertThat(checked.role()).isEqualTo(Role.UPLOADER);
        assertThat(checked.renewed()).as("fresh: nothing to renew").isNull();

        assertThat(sessions.login("ulf", "wrong-pass".toCharArray())).isEmpty();
        assertThat(sessions.login("nobody", "ulf-pass-1".toCharArray())).isEmpty();
        assertThat(sessions.login(null, null)).isEmpty();
    }

    @Test
    void theIdleWindowSlidesWhenMoreThanHalfOfItPassed() {
        String token = sessions.login("rita", "rita-pass-1".toCharArray()).orElseThrow().text();
        clock.advance(Duration.ofMinutes(15));
        assertThat(sessions.check(token, true).renewed()).as("exactly half: not yet").isNull();
        clock.advance(Duration.ofMinutes(1));
        Sessions.Checked checked = sessions.check(token, true);
        assertThat(checked.renewed()).isNotNull();
        assertThat(checked.token().expires()).isEqualTo(clock.instant().plus(IDLE));
        assertThat(sessions.check(token, false).renewed()).as("a Bearer token is not renewed").isNull();

        String renewed = checked.renewed();
        clock.advance(Duration.ofMinutes(29));
        assertThat(sessions.check(token, true).valid()).as("the old token expired").isFalse();
        Sessions.Checked later = sessions.check(renewed, true);
        assertThat(later.valid()).isTrue();
        assertThat(later.token().sessionId()).isEqualTo(checked.token().sessionId());
        assertThat(later.token().created()).isEqualTo(checked.token().created());
    }

    @Test
    void withoutRequestsTheSessionEndsAfterTheIdleWindow() {
        String token = sessions.login("rita", "rita-pass-1".toCharArray()).orElseThrow().text();
        clock.advance(IDLE.minusSeconds(1));
        assertThat(sessions.check(token, false).valid()).isTrue();
        clock.advance(Duration.ofSeconds(1));
        Sessions.Checked expired = sessions.check(token, true);
        assertThat(expired.valid()).isFalse();
        assertThat(expired.problem()).isEqualTo("the session expired");
    }

    @Test
    void renewalsStopAtTheAbsoluteLimit() {
        String token = sessions.login("rita", "rita-pass-1".toCharArray()).orElseThrow().text();
        Instant login = clock.instant();
        for (int i = 0; i < 60; i++) { // a request every 20 minutes
            clock.advance(Duration.ofMinutes(20));
            Sessions.Checked c = sessions.check(token, true);
            if (!c.valid()) {
                break;
            }
            assertThat(c.token().expires()).isBeforeOrEqualTo(login.plus(MAX));
            if (c.renewed() != null) {
                token = c.renewed();
            }
        }
        assertThat(clock.instant()).isAfterOrEqualTo(login.plus(MAX)).isBefore(login.plus(MAX).plusSeconds(1201));
        assertThat(sessions.check(token, true).valid()).isFalse();
    }

    @Test
    void aLogoutEndsTheSessionAndItsRenewals() {
        String token = sessions.login("rita", "rita-pass-1".toCharArray()).orElseThrow().text();
        clock.advance(Duration.ofMinutes(16));
        String renewed = sessions.check(token, true).renewed();
        assertThat(renewed).isNotNull();
        String other = sessions.login("rita", "rita-pass-1".toCharArray()).orElseThrow().text();

        assertThat(sessions.logout(token)).isTrue();
        assertThat(sessions.check(token, true).problem()).isEqualTo("the session ended with a logout");
        assertThat(sessions.check(renewed, true).valid()).as("the renewal belongs to the same session").isFalse();
        assertThat(sessions.check(other, true).valid()).as("another login of the same user").isTrue();
        assertThat(sessions.logout("forged.token")).isFalse();
        assertThat(sessions.logout(null)).isFalse();
    }

    @Test
    void aPasswordChangeARoleChangeOrARemovalEndsTheAccountsSessions() throws IOException {
        String rita = sessions.login("rita", "rita-pass-1".toCharArray()).orElseThrow().text();
        String ulf = sessions.login("ulf", "ulf-pass-1".toCharArray()).orElseThrow().text();

        users.put("rita", "rita-pass-1".toCharArray(), Role.READER,
                TestCallers.USER); // the same password: a new salt, a new hash
        assertThat(sessions.check(rita, true).problem()).contains("account changed");
        assertThat(sessions.check(ulf, true).valid()).isTrue();

        String rita2 = sessions.login("rita", "rita-pass-1".toCharArray()).orElseThrow().text();
        assertThat(sessions.check(rita2, true).valid()).isTrue();
        users.put("rita", "rita-pass-1".toCharArray(), Role.ADMIN, TestCallers.USER);
        assertThat(sessions.check(rita2, true).valid()).as("a role change").isFalse();

        users.remove("ulf", TestCallers.USER);
        assertThat(sessions.check(ulf, true).problem()).contains("account changed");
    }

    @Test
    void aLocalAccountsSessionHoldsTheAccountsProjectsAndEndsWhenTheyChange() throws IOException {
        Sessions.Issued issued = sessions.login("carla", "carla-pass-1".toCharArray()).orElseThrow();
        assertThat(issued.token().projects()).as("not in the token: read from the account").isEmpty();

        Sessions.Checked checked = sessions.check(issued.text(), true);
        assertThat(checked.projects()).containsExactly("cardiology", "neuro");
        assertThat(sessions.check(sessions.login("rita", "rita-pass-1".toCharArray()).orElseThrow().text(), true)
                .projects()).isEmpty();

        users.put("carla", "carla-pass-1".toCharArray(), Role.READER, java.util.List.of("neuro"), TestCallers.USER);
        assertThat(sessions.check(issued.text(), true).problem()).as("a change of projects")
                .contains("account changed");
        Sessions.Checked again = sessions.check(sessions.login("carla", "carla-pass-1".toCharArray()).orElseThrow()
                .text(), true);
        assertThat(again.projects()).containsExactly("neuro");
    }

    @Test
    void theFingerprintChangesWithTheProjectsAndIsTheOldOneForAnAccountWithout() {
        String hash = "pbkdf2-sha256$1$c2FsdA$aGFzaA";
        UserStore.User none = new UserStore.User("rita", Role.READER, hash, java.util.Set.of());
        UserStore.User one = new UserStore.User("rita", Role.READER, hash, java.util.Set.of("cardiology"));
        UserStore.User two = new UserStore.User("rita", Role.READER, none.passwordHash(),
                java.util.Set.of("neuro", "cardiology"));

        assertThat(sessions.fingerprint(none)).as("sessions made before projects existed stay valid")
                .isEqualTo(new SessionCodec(SessionCodecTest.KEY).digest("account", "rita", "reader",
                        none.passwordHash()));
        assertThat(java.util.Set.of(sessions.fingerprint(none), sessions.fingerprint(one), sessions.fingerprint(two)))
                .hasSize(3);
        assertThat(sessions.fingerprint(two)).isEqualTo(sessions.fingerprint(new UserStore.User("rita", Role.READER,
                none.passwordHash(), new java.util.LinkedHashSet<>(java.util.List.of("cardiology", "neuro")))));
    }

    @Test
    void aSingleSignOnSessionNeedsNoLocalAccountAndKeepsItsRoleAndProjectsWhenRenewed() {
        Sessions.Issued issued = sessions.singleSignOn(new OidcTokens.Identity("olga@example.org",
                java.util.Optional.of(Role.ADMIN), java.util.Set.of("research"), clock.instant().plusSeconds(300)));

        clock.advance(IDLE.dividedBy(2).plusMinutes(1));
        Sessions.Checked checked = sessions.check(issued.text(), true);

        assertThat(checked.problem()).isNull();
        assertThat(checked.role()).isEqualTo(Role.ADMIN);
        assertThat(checked.renewed()).isNotNull();
        Sessions.Checked renewed = sessions.check(checked.renewed(), true);
        assertThat(renewed.token().projects()).containsExactly("research");
        assertThat(renewed.role()).isEqualTo(Role.ADMIN);

        assertThat(sessions.logout(issued.text())).isTrue();
        assertThat(sessions.check(checked.renewed(), false).valid()).isFalse();
    }
}
