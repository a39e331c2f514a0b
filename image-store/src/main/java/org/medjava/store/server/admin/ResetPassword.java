package org.medjava.store.server.admin;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.cluster.ClusterDatabase;
import org.medjava.store.core.cluster.SharedState;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.server.security.AccountBook;
import org.medjava.store.server.security.PasswordHasher;
import org.medjava.store.server.security.SharedAccounts;
import org.medjava.store.server.security.UserStore;

/**
 * {@code ./medjava admin reset-password NAME [--stdin]}: gives an account a new password when nobody can log in to
 * change it. The account keeps its role; its browser sessions end (their fingerprint covers the password).
 *
 * <p>One node: works on the data directory's {@code users.properties}, and only while no store runs on it (it takes
 * the store's {@link DataDirectoryLock}): a running store keeps its accounts in memory and would overwrite the file
 * on its next account change. A cluster ({@code medjava.cluster.enabled=true}) keeps its accounts in the shared
 * PostgreSQL: the new password is written there and every running node applies it at once, as for a change made
 * through {@code /admin/users}.
 */
public final class ResetPassword {

    static final int OK = 0;
    static final int BAD_INPUT = 2;
    static final int STORE_RUNNING = 3;

    private final Function<String, Optional<String>> settings;
    private final PrintStream out;
    private final PrintStream err;

    ResetPassword(Function<String, Optional<String>> settings, PrintStream out, PrintStream err) {
        this.settings = settings;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(new ResetPassword(ResetPassword::setting, System.out, System.err).run(args, System.in));
    }

    /** A MicroProfile Config key as the store reads it: system property, else its environment form. */
    static Optional<String> setting(String key) {
        String value = System.getProperty(key);
        if (value == null) {
            value = System.getenv(key.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_"));
        }
        return Optional.ofNullable(value).filter(v -> !v.isBlank());
    }

    /** @param args {@code --data DIR NAME [--stdin]} */
    int run(String[] args, InputStream stdin) {
        Path data = null;
        boolean fromStdin = false;
        List<String> names = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--data" -> data = i + 1 < args.length ? Path.of(args[++i]) : null;
                case "--stdin" -> fromStdin = true;
                default -> names.add(args[i]);
            }
        }
        if (data == null || names.size() != 1 || names.get(0).startsWith("-")) {
            err.println("usage: ./medjava admin reset-password NAME [--stdin]"
                    + "   (the data directory: MEDJAVA_DATA, default data/store)");
            return BAD_INPUT;
        }
        try {
            char[] password = fromStdin ? readLine(stdin) : PasswordHasher.randomPassword().toCharArray();
            if (password == null) {
                err.println("--stdin: no password on standard input");
                return BAD_INPUT;
            }
            return Boolean.parseBoolean(settings.apply("medjava.cluster.enabled").orElse("false"))
                    ? resetInCluster(names.get(0), password, fromStdin)
                    : resetOnNode(data.toAbsolutePath().normalize(), names.get(0), password, fromStdin);
        } catch (IllegalArgumentException e) {
            err.println("refused: " + e.getMessage());
            return BAD_INPUT;
        } catch (IOException | RuntimeException e) {
            err.println("the password was not changed: " + e.getMessage());
            return 1;
        }
    }

    private int resetOnNode(Path data, String name, char[] password, boolean fromStdin) throws IOException {
        Path accounts = data.resolve("users.properties");
        if (!Files.isRegularFile(accounts)) {
            err.println(data + " has no accounts (users.properties): is it the store's data directory? Set"
                    + " MEDJAVA_DATA to the directory the store was started with (it makes the file on first start).");
            return BAD_INPUT;
        }
        Optional<DataDirectoryLock> lock = DataDirectoryLock.tryAcquire(data);
        if (lock.isEmpty()) {
            err.println("the image store using " + data + " is running"
                    + DataDirectoryLock.holder(data).map(pid -> " (pid " + pid + ")").orElse("")
                    + ": nothing was changed. Stop it first (./medjava stop), then run this again; or, while it runs,"
                    + " an administrator can set the password in the web console or with PUT /admin/users/" + name
                    + ".");
            return STORE_RUNNING;
        }
        try (DataDirectoryLock held = lock.get()) {
            return reset(new UserStore(accounts), name, password, fromStdin, "stored hashed in " + accounts
                    + "; the store uses it from its next start");
        }
    }

    private int resetInCluster(String name, char[] password, boolean fromStdin) throws IOException {
        String url = settings.apply("medjava.db.url").orElse("");
        if (!url.startsWith("jdbc:postgresql:")) {
            err.println("medjava.cluster.enabled=true: the accounts are in the cluster's PostgreSQL; set"
                    + " MEDJAVA_DB_URL=jdbc:postgresql://host/db, MEDJAVA_DB_USER and MEDJAVA_DB_PASSWORD as for the"
                    + " nodes");
            return BAD_INPUT;
        }
        IndexDatabase database = IndexDatabase.of(url, settings.apply("medjava.db.user").orElse(""),
                settings.apply("medjava.db.password").orElse(""));
        try (ClusterDatabase cluster = new ClusterDatabase(database); SharedState state = new SharedState(cluster)) {
            return reset(new UserStore(oneShot(new SharedAccounts(state))), name, password, fromStdin,
                    "stored hashed in the cluster's database " + database.describe()
                            + "; every running node applies it at once");
        }
    }

    /** The accounts without the subscription a running node needs: this tool writes once and closes. */
    private static AccountBook oneShot(AccountBook book) {
        return new AccountBook() {
            @Override
            public Map<String, String> load() throws IOException {
                return book.load();
            }

            @Override
            public void put(String name, String entry, Map<String, String> all) throws IOException {
                book.put(name, entry, all);
            }

            @Override
            public boolean putIfAbsent(String name, String entry, Map<String, String> all) throws IOException {
                return book.putIfAbsent(name, entry, all);
            }

            @Override
            public void remove(String name, Map<String, String> all) throws IOException {
                book.remove(name, all);
            }
        };
    }

    private int reset(UserStore users, String name, char[] password, boolean fromStdin, String where)
            throws IOException {
        Optional<UserStore.User> user = users.user(name);
        if (user.isEmpty()) {
            err.println("no account named " + name + "; the accounts are " + users.roles().keySet());
            return BAD_INPUT;
        }
        users.put(name, password, user.get().role(), Caller.account(System.getProperty("user.name"), null));
        if (fromStdin) {
            out.println("the password of " + name + " (" + user.get().role().id() + ") was changed (" + where + ")");
        } else {
            out.println("new password for " + name + " (" + user.get().role().id() + "): " + new String(password));
            out.println("(shown this once; " + where + ")");
        }
        return OK;
    }

    private static char[] readLine(InputStream in) throws IOException {
        String line = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
        return line == null ? null : line.toCharArray();
    }
}
