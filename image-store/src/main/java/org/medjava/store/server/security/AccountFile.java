package org.medjava.store.server.security;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/** The accounts in a properties file readable by its owner only, replaced atomically on every change. */
public final class AccountFile implements AccountBook {

    private final Path file;

    public AccountFile(Path file) {
        this.file = file;
    }

    @Override
    public Map<String, String> load() throws IOException {
        Map<String, String> entries = new TreeMap<>();
        if (Files.exists(file)) {
            Properties p = new Properties();
            try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(in);
            }
            p.stringPropertyNames().forEach(name -> entries.put(name, p.getProperty(name)));
        }
        return entries;
    }

    @Override
    public void put(String name, String entry, Map<String, String> all) throws IOException {
        save(all);
    }

    @Override
    public boolean putIfAbsent(String name, String entry, Map<String, String> all) throws IOException {
        if (load().containsKey(name)) {
            return false;
        }
        save(all);
        return true;
    }

    @Override
    public void remove(String name, Map<String, String> all) throws IOException {
        save(all);
    }

    private void save(Map<String, String> all) throws IOException {
        Properties p = new Properties();
        p.putAll(all);
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(temp);
        Files.createFile(temp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (Writer out = Files.newBufferedWriter(temp, StandardCharsets.UTF_8)) {
            p.store(out, "MedJava image store accounts: name = role:PBKDF2 hash[:project,...]. Manage with "
                    + "/admin/users.");
        }
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public String toString() {
        return file.toString();
    }
}
