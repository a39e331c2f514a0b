package org.medjava.store.server.security;

import org.medjava.store.core.audit.AuditEvents;
import org.medjava.store.core.audit.AuditTrail;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.index.Labels;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;
import java.util.regex.Pattern;

/**
 * The store's accounts, kept in an {@link AccountBook} (a properties file, or a cluster's shared state), each as
 * {@code role:hash}, or {@code role:hash:project,project} for an account with projects (access by project); entries
 * without projects are written as before, so a file or shared state of an older version loads unchanged. Passwords are
 * kept as PBKDF2 hashes; since HTTP Basic sends the password with every request and a PBKDF2 check costs hundreds
 * of milliseconds by design, successful checks are remembered in memory (as a SHA-256 of name and password, never
 * the password) until the account changes.
 */
public final class UserStore {

    /** The longest password an account may have (a passphrase fits; a megabyte sent to be hashed does not). */
    public static final int MAX_PASSWORD = 1024;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    /**
     * One account.
     *
     * @param projects the projects it belongs to (labels, see {@link Labels}): under access by project, the studies
     *                 it sees; sorted
     */
    public record User(String name, Role role, String passwordHash, Set<String> projects) {
        public User {
            projects = Collections.unmodifiableSortedSet(new TreeSet<>(projects));
        }
    }

    private final AccountBook book;
    private final Map<String, User> users = new TreeMap<>();
    private final Map<String, String> verified = new ConcurrentHashMap<>();
    private volatile AuditTrail audit = AuditTrail.NONE;
    /** The password check: {@link PasswordHasher#verify}; a test's seam to count checks without timing them. */
    private volatile BiPredicate<char[], String> verifier = PasswordHasher::verify;

    /** The accounts in a properties file ({@code name = role:hash[:projects]}), readable by its owner only. */
    public UserStore(Path file) throws IOException {
        this(new AccountFile(file));
    }

    public UserStore(AccountBook book) throws IOException {
        this.book = book;
        reload();
        book.onChange(() -> {
            try {
                reload();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Reads the accounts again (another node changed them); remembered password checks are forgotten. */
    private synchronized void reload() throws IOException {
        Map<String, User> loaded = new TreeMap<>();
        for (Map.Entry<String, String> e : book.load().entrySet()) {
            String name = e.getKey();
            String[] parts = e.getValue().split(":", 3);
            if (parts.length < 2) {
                throw new IOException(book + ": the entry for " + name + " is not role:hash[:projects]");
            }
            try {
                loaded.put(name, new User(name, Role.parse(parts[0]), parts[1],
                        parts.length == 3 ? projects(parts[2]) : Set.of()));
            } catch (IllegalArgumentException ex) {
                throw new IOException(book + ": the entry for " + name + ": " + ex.getMessage(), ex);
            }
        }
        users.clear();
        users.putAll(loaded);
        verified.clear();
    }

    /** Where account changes are recorded, with the caller the current thread serves (nothing until set). */
    public void auditTo(AuditTrail trail) {
        this.audit = trail;
    }

    private void audited(String name, String change, User user, Caller caller) {
        audit.record(AuditEvents.accountChanged(caller, name, change,
                user == null ? null : user.role().id(), user == null ? null : user.projects()));
    }

    public synchronized boolean isEmpty() {
        return users.isEmpty();
    }

    public synchronized Map<String, Role> roles() {
        Map<String, Role> roles = new TreeMap<>();
        users.values().forEach(u -> roles.put(u.name(), u.role()));
        return roles;
    }

    /** The accounts by name. */
    public synchronized Map<String, User> accounts() {
        return new TreeMap<>(users);
    }

    /**
     * Creates or replaces an account; one that exists keeps its projects (a new one has none). {@code caller} is who
     * asked, for the audit trail (as for every change below).
     */
    public synchronized void put(String name, char[] password, Role role, Caller caller) throws IOException {
        User old = users.get(name);
        put(name, password, role, old == null ? Set.of() : old.projects(), caller);
    }

    /**
     * Creates or replaces an account with these projects.
     *
     * @throws IllegalArgumentException for a name, password or project that is not allowed (nothing changes)
     */
    public synchronized void put(String name, char[] password, Role role, Collection<String> projects,
                                 Caller caller) throws IOException {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("user names are 1 to 64 letters, digits, '.', '_' or '-'");
        }
        if (password.length < 8) {
            throw new IllegalArgumentException("passwords need at least 8 characters");
        }
        if (password.length > MAX_PASSWORD) {
            throw new IllegalArgumentException("passwords have at most " + MAX_PASSWORD + " characters");
        }
        projects.forEach(Labels::check);
        User user = new User(name, role, PasswordHasher.hash(password), Set.copyOf(projects));
        boolean existed = users.containsKey(name);
        users.put(name, user);
        verified.clear();
        book.put(name, entry(user), entries());
        audited(name, existed ? "update" : "create", user, caller);
    }

    /**
     * Creates an account unless one of that name exists, here or (in a cluster) on another node.
     *
     * @return whether this call created it
     */
    public synchronized boolean putIfAbsent(String name, char[] password, Role role, Caller caller)
            throws IOException {
        if (users.containsKey(name)) {
            return false;
        }
        User user = new User(name, role, PasswordHasher.hash(password), Set.of());
        if (!book.putIfAbsent(name, entry(user), with(user))) {
            reload();
            return false;
        }
        users.put(name, user);
        verified.clear();
        audited(name, "create", user, caller);
        return true;
    }

    private Map<String, String> with(User user) {
        Map<String, String> all = entries();
        all.put(user.name(), entry(user));
        return all;
    }

    public synchronized boolean remove(String name, Caller caller) throws IOException {
        boolean removed = users.remove(name) != null;
        verified.clear();
        book.remove(name, entries());
        if (removed) {
            audited(name, "remove", null, caller);
        }
        return removed;
    }

    /**
     * Whether this name and password were checked right since the account last changed: then {@link #authenticate}
     * answers from memory, and HTTP Basic's repeated sending of them is no new login for the audit trail.
     */
    public boolean remembers(String name, char[] password) {
        return rememberedUser(name, password).isPresent();
    }

    /** The account, as it is now, when this name and password are remembered as right; else empty. */
    public Optional<User> rememberedUser(String name, char[] password) {
        User user;
        synchronized (this) {
            user = users.get(name);
        }
        return user != null && user.passwordHash().equals(verified.get(fingerprint(name, password)))
                ? Optional.of(user) : Optional.empty();
    }

    /** Whether the account is still as it was (every change, reload or removal makes a new one, or none). */
    public synchronized boolean isCurrent(User user) {
        return users.get(user.name()) == user;
    }

    /** The user's role when the password is right. */
    public Optional<Role> authenticate(String name, char[] password) {
        return authenticatedUser(name, password).map(User::role);
    }

    /** The account, as it is now, when the password is right. */
    public Optional<User> authenticatedUser(String name, char[] password) {
        if (password.length > MAX_PASSWORD) {
            return Optional.empty(); // no account has one: not worth hashing megabytes to say so
        }
        User user;
        synchronized (this) {
            user = users.get(name);
        }
        if (user == null) {
            verifier.test(password, UnknownUser.HASH); // as long as for a known name: nothing told
            return Optional.empty();
        }
        String key = fingerprint(name, password);
        if (user.passwordHash().equals(verified.get(key))) {
            return Optional.of(user);
        }
        if (!verifier.test(password, user.passwordHash())) {
            return Optional.empty();
        }
        verified.put(key, user.passwordHash());
        return Optional.of(user);
    }

    /** The account of that name, as it is now. */
    public synchronized Optional<User> user(String name) {
        return Optional.ofNullable(users.get(name));
    }

    /** Checks passwords with another verifier (tests count the checks through it). */
    void verifyWith(BiPredicate<char[], String> check) {
        this.verifier = check;
    }

    /**
     * A hash no password matches, made once with the stored hashes' parameters (PBKDF2, {@link
     * PasswordHasher#ITERATIONS}), checked for unknown names so that a wrong name costs what a wrong password does.
     */
    static final class UnknownUser {
        static final String HASH = PasswordHasher.hash(PasswordHasher.randomPassword().toCharArray());

        private UnknownUser() {
        }
    }

    /** A digest per thread: looking the algorithm up for every request's Basic login was measurable (JFR). */
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    private static String fingerprint(String name, char[] password) {
        MessageDigest sha = SHA256.get();
        sha.reset();
        sha.update(name.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        sha.update(new String(password).getBytes(StandardCharsets.UTF_8));
        // the 32 bytes as 32 Latin-1 chars: a key in memory only, made for every remembered Basic read
        return new String(sha.digest(), StandardCharsets.ISO_8859_1); // digest() resets it for the next use
    }

    private static String entry(User u) {
        String entry = u.role().id() + ":" + u.passwordHash();
        return u.projects().isEmpty() ? entry : entry + ":" + String.join(",", u.projects());
    }

    private static Set<String> projects(String list) {
        Set<String> projects = new TreeSet<>();
        for (String p : list.split(",", -1)) {
            projects.add(Labels.check(p.trim()));
        }
        return projects;
    }

    private Map<String, String> entries() {
        Map<String, String> all = new TreeMap<>();
        users.values().forEach(u -> all.put(u.name(), entry(u)));
        return all;
    }
}
