package org.medjava.store.security;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The store's accounts, in a properties file ({@code name = role:hash}) readable by its owner only. Passwords are
 * kept as PBKDF2 hashes; since HTTP Basic sends the password with every request and a PBKDF2 check costs hundreds
 * of milliseconds by design, successful checks are remembered in memory (as a SHA-256 of name and password, never
 * the password) until the account changes.
 */
public final class UserStore {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    /** One account. */
    public record User(String name, Role role, String passwordHash) {
    }

    private final Path file;
    private final Map<String, User> users = new TreeMap<>();
    private final Map<String, String> verified = new ConcurrentHashMap<>();

    public UserStore(Path file) throws IOException {
        this.file = file;
        if (Files.exists(file)) {
            Properties p = new Properties();
            try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(in);
            }
            for (String name : p.stringPropertyNames()) {
                String[] roleAndHash = p.getProperty(name).split(":", 2);
                if (roleAndHash.length != 2) {
                    throw new IOException(file + ": the entry for " + name + " is not role:hash");
                }
                try {
                    users.put(name, new User(name, Role.parse(roleAndHash[0]), roleAndHash[1]));
                } catch (IllegalArgumentException e) {
                    throw new IOException(file + ": the entry for " + name + ": " + e.getMessage(), e);
                }
            }
        }
    }

    public synchronized boolean isEmpty() {
        return users.isEmpty();
    }

    public synchronized Map<String, Role> roles() {
        Map<String, Role> roles = new TreeMap<>();
        users.values().forEach(u -> roles.put(u.name(), u.role()));
        return roles;
    }

    /** Creates or replaces an account. */
    public synchronized void put(String name, char[] password, Role role) throws IOException {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("user names are 1 to 64 letters, digits, '.', '_' or '-'");
        }
        if (password.length < 8) {
            throw new IllegalArgumentException("passwords need at least 8 characters");
        }
        users.put(name, new User(name, role, PasswordHasher.hash(password)));
        verified.clear();
        save();
    }

    public synchronized boolean remove(String name) throws IOException {
        boolean removed = users.remove(name) != null;
        verified.clear();
        save();
        return removed;
    }

    /** The user's role when the password is right. */
    public Optional<Role> authenticate(String name, char[] password) {
        User user;
        synchronized (this) {
            user = users.get(name);
        }
        if (user == null) {
            return Optional.empty();
        }
        String key = fingerprint(name, password);
        if (user.passwordHash().equals(verified.get(key))) {
            return Optional.of(user.role());
        }
        if (!PasswordHasher.verify(password, user.passwordHash())) {
            return Optional.empty();
        }
        verified.put(key, user.passwordHash());
        return Optional.of(user.role());
    }

    private static String fingerprint(String name, char[] password) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(name.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(new String(password).getBytes(StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private void save() throws IOException {
        Properties p = new Properties();
        users.values().forEach(u -> p.setProperty(u.name(), u.role().id() + ":" + u.passwordHash()));
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(temp);
        Files.createFile(temp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (Writer out = Files.newBufferedWriter(temp, StandardCharsets.UTF_8)) {
            p.store(out, "MedJava image store accounts: name = role:PBKDF2 hash. Manage with /admin/users.");
        }
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
