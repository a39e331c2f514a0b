package org.medjava.store.server.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Resistance to password guessing, for every door that checks a password (HTTP Basic, {@code POST /auth/login}).
 *
 * <p>Failures are counted per client address and per account <em>and</em> address. Once a key has its limit of
 * failures within {@link #WINDOW}, password checks for it are refused without hashing (429 with
 * {@code Retry-After}) for a delay that starts at one second and doubles with each further failure, up to a cap.
 * The per-account count is keyed with the address on purpose: an attacker's failures for an account never lock
 * its real user out from another address (the price: an attacker spreading over many addresses is slowed per
 * address only). A success clears its account-and-address count, never the address's (one valid account must not
 * buy unlimited guesses at others). Both maps are bounded: beyond {@code maxEntries} the entry that failed least
 * recently is forgotten, so a spray of addresses or names cannot grow memory.
 *
 * <p>Password hashing itself is bounded: at most {@code permits} checks run at once; a check that gets no permit
 * within {@code permitWait} is answered 503 with {@code Retry-After} instead of queueing, so anonymous traffic
 * cannot pin every core. Checks answered from {@link UserStore}'s memory of good passwords need no permit.
 */
public final class LoginThrottle {

    /** Failures older than this (since a key's last failure) are forgotten. */
    static final Duration WINDOW = Duration.ofMinutes(15);
    static final Duration FIRST_DELAY = Duration.ofSeconds(1);

    /** How an attempt ended. */
    public enum Outcome { ACCEPTED, REJECTED, THROTTLED, BUSY }

    /**
     * The end of an attempt: its outcome, the checked result when accepted, and how many seconds to wait when
     * throttled or busy ({@code Retry-After}).
     */
    public record Attempt<T>(Outcome outcome, T value, long retryAfterSeconds) {
    }

    private static final class Failures {
        int count;
        Instant last;
        Instant lockedUntil = Instant.MIN;
    }

    private final int maxFailures;
    private final int maxAddressFailures;
    private final Duration maxDelay;
    private final int maxEntries;
    private final Semaphore hashing;
    private final Duration permitWait;
    private final Clock clock;
    private final Map<String, Failures> addresses = new LinkedHashMap<>();
    private final Map<String, Failures> accounts = new LinkedHashMap<>();
    /**
     * Whether both maps are empty, as the last change under the lock left them: then an attempt needs no lock (a
     * remembered Basic login is checked on every request, by many threads at once).
     */
    private volatile boolean clear = true;

    public LoginThrottle(int maxFailures, int maxAddressFailures, Duration maxDelay, int maxEntries, int permits,
                         Duration permitWait, Clock clock) {
        if (maxFailures < 1 || maxAddressFailures < 1 || maxEntries < 1 || permits < 1) {
            throw new IllegalArgumentException("the login throttle's limits must be at least 1");
        }
        this.maxFailures = maxFailures;
        this.maxAddressFailures = maxAddressFailures;
        this.maxDelay = maxDelay.compareTo(FIRST_DELAY) < 0 ? FIRST_DELAY : maxDelay;
        this.maxEntries = maxEntries;
        this.hashing = new Semaphore(permits);
        this.permitWait = permitWait;
        this.clock = clock;
    }

    /** The store's throttle: as many concurrent password checks as cores, a permit awaited for 2 s at most. */
    public static LoginThrottle of(int maxFailures, int maxAddressFailures, Duration maxDelay) {
        return new LoginThrottle(maxFailures, maxAddressFailures, maxDelay, 10_000,
                Runtime.getRuntime().availableProcessors(), Duration.ofSeconds(2), Clock.systemUTC());
    }

    /**
     * Checks a password under the throttle.
     *
     * @param address the client's address
     * @param account the name sent (any string: unknown names are counted too)
     * @param cached  whether the check is answered from memory (no hashing, so no permit needed)
     * @param check   the password check: a value when right, empty when wrong
     */
    public <T> Attempt<T> attempt(String address, String account, boolean cached, Supplier<Optional<T>> check) {
        long wait = retryAfter(address, account);
        if (wait > 0) {
            return new Attempt<>(Outcome.THROTTLED, null, wait);
        }
        Optional<T> result;
        if (cached) {
            result = check.get();
        } else {
            if (!acquire()) {
                return new Attempt<>(Outcome.BUSY, null, Math.max(1, permitWait.toSeconds()));
            }
            try {
                result = check.get();
            } finally {
                hashing.release();
            }
        }
        if (result.isPresent()) {
            succeeded(address, account);
            return new Attempt<>(Outcome.ACCEPTED, result.get(), 0);
        }
        failed(address, account);
        return new Attempt<>(Outcome.REJECTED, null, 0);
    }

    private boolean acquire() {
        try {
            return hashing.tryAcquire(permitWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Seconds until a password check for this account from this address is allowed again; 0 when it is now. */
    long retryAfter(String address, String account) {
        return clear ? 0 : lockedRetryAfter(address, account);
    }

    private synchronized long lockedRetryAfter(String address, String account) {
        Instant now = clock.instant();
        Instant until = later(lockedUntil(addresses, address, now), lockedUntil(accounts, pair(address, account), now));
        clear = addresses.isEmpty() && accounts.isEmpty(); // expired entries were just forgotten
        return until.isAfter(now) ? Math.max(1, (Duration.between(now, until).toMillis() + 999) / 1000) : 0;
    }

    synchronized void failed(String address, String account) {
        Instant now = clock.instant();
        count(addresses, address, maxAddressFailures, now);
        count(accounts, pair(address, account), maxFailures, now);
        clear = false;
    }

    void succeeded(String address, String account) {
        if (!clear) {
            forget(address, account);
        }
    }

    private synchronized void forget(String address, String account) {
        accounts.remove(pair(address, account));
        clear = addresses.isEmpty() && accounts.isEmpty();
    }

    /** How many keys are remembered (addresses plus account-and-address pairs). */
    synchronized int size() {
        return addresses.size() + accounts.size();
    }

    private void count(Map<String, Failures> map, String key, int limit, Instant now) {
        Failures f = live(map, key, now);
        if (f == null) {
            f = new Failures();
        }
        map.remove(key); // re-inserted last: the map's order is that of the last failure
        f.count++;
        f.last = now;
        if (f.count >= limit) {
            int doublings = Math.min(f.count - limit, 30);
            Duration delay = FIRST_DELAY.multipliedBy(1L << doublings);
            f.lockedUntil = now.plus(delay.compareTo(maxDelay) > 0 ? maxDelay : delay);
        }
        map.put(key, f);
        for (Iterator<Failures> oldest = map.values().iterator(); map.size() > maxEntries && oldest.hasNext(); ) {
            oldest.next();
            oldest.remove();
        }
    }

    private Instant lockedUntil(Map<String, Failures> map, String key, Instant now) {
        Failures f = live(map, key, now);
        return f == null ? Instant.MIN : f.lockedUntil;
    }

    /** The key's failures unless its window has passed (then it is forgotten). */
    private static Failures live(Map<String, Failures> map, String key, Instant now) {
        Failures f = map.get(key);
        if (f != null && !now.isBefore(f.last.plus(WINDOW)) && !now.isBefore(f.lockedUntil)) {
            map.remove(key);
            return null;
        }
        return f;
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static String pair(String address, String account) {
        return address + "\u0000" + account;
    }
}
