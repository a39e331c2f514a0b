package org.medjava.store.server.config;

import java.time.Duration;
import java.util.Optional;

/** Accounts, logins and browser sessions: anonymous reads, the first admin, login throttling, sessions, CORS. */
public record AuthSettings(boolean anonymousRead, Optional<String> initialAdminPassword, int maxFailures,
                           int maxAddressFailures, Duration maxDelay, Duration sessionIdle, Duration sessionMax,
                           String corsOrigins) {

    /** Whether reads need no login; writes and administration always need one. */
    static final Key ANONYMOUS_READ = Key.of("medjava.auth.anonymous-read", "false");

    /**
     * The password of the {@code admin} account made on the first start (for automation; in a cluster, on the cluster's
     * first start). Unset: a random one, printed once in the start banner.
     */
    static final Key INITIAL_PASSWORD = Key.of("medjava.admin.initial-password");

    /**
     * Wrong passwords for one account from one client address, within 15 minutes, after which that account's checks
     * from that address are throttled (429 with {@code Retry-After}, without hashing, even for the right password). The
     * count is kept per address so an attacker never locks the real user out from elsewhere.
     */
    static final Key MAX_FAILURES = Key.of("medjava.auth.max-failures", "5");

    /**
     * Wrong passwords from one client address, over all accounts, within 15 minutes, after which every check from that
     * address is throttled.
     */
    static final Key MAX_ADDRESS_FAILURES = Key.of("medjava.auth.max-address-failures", "20");

    /**
     * The longest a throttled address or account waits, in seconds: the delay starts at 1 s and doubles with each
     * further failure up to this.
     */
    static final Key MAX_DELAY = Key.of("medjava.auth.max-delay-seconds", "300");

    /**
     * Minutes without a request after which a browser session ends (the cookie is renewed once half of it has passed).
     */
    static final Key SESSION_IDLE = Key.of("medjava.session.idle-minutes", "30");

    /** Hours after its login at which a browser session ends, however active. */
    static final Key SESSION_MAX = Key.of("medjava.session.max-hours", "12");

    /**
     * Other web origins whose pages may call the store: exact origins, comma-separated, credentials allowed; {@code *}
     * lets any origin read what needs no login, without credentials. Unset: none (other origins get no CORS header).
     */
    static final Key CORS_ORIGINS = Key.of("medjava.cors.origins");

    public static AuthSettings from(SettingsSource source) {
        Duration idle = Duration.ofMinutes(SettingsSource.atLeast(SESSION_IDLE, source.integer(SESSION_IDLE), 1));
        Duration max = Duration.ofHours(SettingsSource.atLeast(SESSION_MAX, source.integer(SESSION_MAX), 1));
        if (max.compareTo(idle) < 0) {
            throw new SettingException(SESSION_MAX, source.integer(SESSION_MAX), "a session's absolute limit is at"
                    + " least as long as its idle timeout (medjava.session.idle-minutes " + idle.toMinutes() + ")");
        }
        return new AuthSettings(source.bool(ANONYMOUS_READ), source.text(INITIAL_PASSWORD).filter(s -> !s.isBlank()),
                SettingsSource.atLeast(MAX_FAILURES, source.integer(MAX_FAILURES), 1),
                SettingsSource.atLeast(MAX_ADDRESS_FAILURES, source.integer(MAX_ADDRESS_FAILURES), 1),
                Duration.ofSeconds(SettingsSource.atLeast(MAX_DELAY, source.integer(MAX_DELAY), 0)), idle, max,
                source.text(CORS_ORIGINS).orElse(""));
    }

    @Override
    public String toString() { // never the password
        return "AuthSettings[anonymousRead=" + anonymousRead + ", maxFailures=" + maxFailures + ", maxAddressFailures="
                + maxAddressFailures + ", maxDelay=" + maxDelay + ", sessionIdle=" + sessionIdle + ", sessionMax="
                + sessionMax + ", corsOrigins=" + corsOrigins + "]";
    }
}
