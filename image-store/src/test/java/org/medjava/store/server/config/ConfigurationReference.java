package org.medjava.store.server.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code docs/configuration.md}, rendered from the sources: the MicroProfile Config keys from their declarations,
 * {@code Key.of("medjava.…", "default")} constants of the settings records (or {@code @ConfigProperty} fields; the
 * meaning is the constant's or field's javadoc), and the environment variables and plain system
 * properties the launcher and the programs read, found where they are read and described in {@link #VARIABLES} and
 * {@link #SYSTEM_PROPERTIES}. A source scan rather than reflection: the javadoc is not in the class files.
 */
final class ConfigurationReference {

    static final String FILE = "docs/configuration.md";
    static final String REGENERATE = "mvn -B -ntp -o -pl image-store test -Dtest=ConfigurationReferenceTest "
            + "-Dmedjava.regenerate-docs=true";

    /** A MicroProfile Config key: its name, default (null: none), javadoc (null: none) and file:line. */
    record Key(String name, String defaultValue, String meaning, String source) {
        String environment() {
            return environmentForm(name);
        }
    }

    /** A setting that is not a key: described here, since it is read in the middle of a method, not on a field. */
    record Described(String name, String defaultValue, String meaning) {
    }

    /** A group of keys by name prefix, with what applies to all of them. */
    record Section(String title, List<String> prefixes, String intro) {
        boolean holds(String key) {
            return prefixes.stream().anyMatch(p -> key.equals(p) || key.startsWith(p + "."));
        }
    }

    static final List<Section> SECTIONS = List.of(
            new Section("Data directory, index and storage", List.of("medjava.data-dir", "medjava.db",
                    "medjava.storage", "medjava.seed", "medjava.backup"), """
                    The data directory holds everything of one node. The objects live under it (`files`) or in \
                    S3-compatible object storage (`s3`: AWS S3, or any server that speaks its API, path-style \
                    addressing); the index is an H2 database under it unless `medjava.db.url` names another:

                    ```sh
                    MEDJAVA_STORAGE=s3 MEDJAVA_STORAGE_S3_ENDPOINT=http://objects.example.org:9000 \\
                    MEDJAVA_STORAGE_S3_BUCKET=pacs MEDJAVA_STORAGE_S3_ACCESS_KEY=… MEDJAVA_STORAGE_S3_SECRET_KEY=… \\
                      ./medjava start
                    ```

                    On S3, uploads stream from the staging file (multipart above 16 MiB, aborted on failure, so \
                    nothing half-written is ever visible). Wrong credentials, a missing bucket or an unreachable \
                    endpoint stop the start with a message naming the setting; an object storage that goes away \
                    later gives 503s (nothing stored is changed) and the store recovers by itself when it is back. \
                    Layout and guarantees: [docs/modules.md](modules.md#storage)."""),
            new Section("HTTP, TLS and links", List.of("medjava.public-url", "medjava.http", "medjava.https",
                    "medjava.tls"), """
                    The store's port is its own front (`front.FrontServer`), which answers plain reads itself and \
                    relays the rest to Payara Micro's HTTP listener behind it, on the loopback. Every starter sets \
                    `medjava.http.port` and `medjava.http.backend-port`, e.g. `java -Dmedjava.http.port=8080 \
                    -Dmedjava.http.backend-port=8081 -jar payara-micro.jar --deploy image-store.war --contextroot / \
                    --port 8081 --prebootcommandfile deploy/payara-preboot.txt`.

                    Absolute links (RetrieveURL, BulkDataURI, Location) come from `medjava.public-url` when set, from \
                    a trusted proxy's forwarded headers with `medjava.http.trust-forwarded=true`, and otherwise from \
                    the request's `Host` only when it names this server: `localhost` (and `*.localhost`), the \
                    machine's addresses and host names, the address the connection arrived on, the host of \
                    `medjava.public-url`, or a name in `medjava.http.allowed-hosts`; any port. Any other Host is \
                    refused with 400. A container reached under another name needs `MEDJAVA_PUBLIC_URL` or \
                    `MEDJAVA_HTTP_ALLOWED_HOSTS`."""),
            new Section("Accounts, logins and browser sessions", List.of("medjava.auth", "medjava.admin",
                    "medjava.session", "medjava.cors"), """
                    Roles: reader ⊂ uploader ⊂ admin. Writes and administration always need a login; reads too \
                    unless `medjava.auth.anonymous-read=true`. In a cluster, set the session and CORS keys the same \
                    on every node (the sessions' signing key is made once, in the shared database)."""),
            new Section("Single sign-on (OpenID Connect) and access by project", List.of("medjava.oidc",
                    "medjava.access", "medjava.share"), """
                    With `medjava.oidc.issuer` set, the provider's JWT access tokens are accepted as \
                    `Authorization: Bearer` on every API (DICOMweb included), and the login page offers the \
                    provider's login (authorization code with PKCE), which makes an ordinary browser session. Local \
                    accounts keep working. Share links open one study read only without an account. See \
                    docs/operations/single-sign-on.md."""),
            new Section("Uploads, memory and size limits", List.of("medjava.upload", "medjava.plugin",
                    "medjava.images", "medjava.memory"), """
                    A refusal is a 4xx (or a 503 with `Retry-After` when the store is only busy) with a \
                    plain-language reason, and never changes what was stored. Every decode (upload validation, \
                    rendering, thumbnails, derived objects, series jobs) takes its estimate from one store-wide \
                    decode budget. Size the heap for `medjava.upload.max-concurrent-large` × \
                    `medjava.upload.max-bytes` plus the decode budget plus about 512 MiB."""),
            new Section("Filters", List.of("medjava.filters", "medjava.plugins"), """
                    Every filter call (renderings, DICOMweb rendered resources, derived objects, derive-series jobs) \
                    runs on a bounded pool under a deadline, so a plugin that never returns cannot pin the server. \
                    Background jobs wait up to 2 minutes for a slot instead of 2 s. The system property \
                    `medjava.filters.scalar` (below) turns the vector kernels off."""),
            new Section("DICOM network (PACS)", List.of("medjava.dicom"), """
                    ```sh
                    MEDJAVA_DICOM_PORT=11112 MEDJAVA_DICOM_ALLOWED_AETS='MODALITY1=10.0.0.5, ORTHANC, STORESCU' \\
                    MEDJAVA_DICOM_MOVE_DESTINATIONS='WORKSTATION=10.0.0.7:104' \\
                    MEDJAVA_DICOM_REMOTES='PACS=pacs.example.org:11112' ./medjava start
                    ```

                    With HTTPS on, `./medjava start` also listens for DICOM TLS on 2762 with the HTTPS certificate; \
                    `tls` after a peer's port (`PACS=pacs.example.org:2762 tls`) reaches it over TLS \
                    ([DICOM TLS](operations/tls.md#dicom-tls)).

                    In a cluster, set them the same on every node; the load balancer forwards DICOM associations \
                    (compose)."""),
            new Section("Logs and audit trail", List.of("medjava.log", "medjava.audit"), """
                    Three files in `<data-dir>/logs/`: `medjava.log` (the server log), `access.log` (one line per \
                    HTTP request) and `audit.log` (one DICOM audit message per line; mode 600, it holds Patient IDs), \
                    each rotated by size the way logrotate names copies (`name.1` is the newest, the oldest beyond \
                    the count is deleted)."""),
            new Section("Cluster and background jobs", List.of("medjava.cluster", "medjava.jobs"), """
                    A node joins with `medjava.cluster.enabled=true`. Every node also needs the shared PostgreSQL \
                    (`medjava.db.url`, `medjava.db.user`, `medjava.db.password`, e.g. \
                    `jdbc:postgresql://db:5432/medjava`), `medjava.storage=s3` with the shared bucket \
                    (`medjava.storage.s3.*`), its own `medjava.data-dir` (staging, logs: never shared) and \
                    `medjava.public-url` set to the load balancer's URL (links point there, not at one node); \
                    `medjava.seed.*` on one node only; `medjava.admin.initial-password` counts on the cluster's \
                    first start. Details and the load balancer's configuration: [docs/cluster.md](cluster.md). \
                    Jobs run on one node too, from a queue in memory."""),
            new Section("Deletion, the trash and retention", List.of("medjava.trash", "medjava.delete",
                    "medjava.retention"), """
                    Deleted studies, series and instances stay restorable in the trash for the grace period, then \
                    the background purge removes their files; see \
                    [Deleting studies](pacs.md#deleting-studies-the-trash) and \
                    [Retention rules](pacs.md#retention-rules)."""),
            new Section("Routing", List.of("medjava.route"), """
                    Routing rules forward what the store receives to a remote AE or a STOW-RS endpoint from a queue in \
                    the index database; a failed send waits, doubling from the initial back-off up to the maximum, \
                    and is given up (the dead-letter list) after the most attempts; see \
                    [Routing rules](pacs.md#routing-rules)."""),
            new Section("Start-up", List.of("medjava.banner"), ""));

    static final String OTHER_SECTION = "Other keys";

    /** Environment variables that are not keys, or keys' environment forms the launcher does more with. */
    static final List<Described> VARIABLES = List.of(
            new Described("MEDJAVA_PORT", "`8080`", "The store's HTTP port (`medjava.http.port`; Payara's listener "
                    + "behind it on the first free port from this + 1000); where `admin backup` looks for a running "
                    + "store; `./medjava cluster`'s nginx port (its nodes on +1, +2, +3)."),
            new Described("MEDJAVA_HTTP_BIND", "`127.0.0.1` while HTTPS is on, else all interfaces", "The address "
                    + "HTTP listens on (`medjava.http.bind`); when set, HTTPS and the DICOM port follow it (unless "
                    + "`MEDJAVA_HTTPS_BIND` / `MEDJAVA_DICOM_BIND` is set). Unset with HTTPS on, other machines "
                    + "reach the store over HTTPS only ([TLS](operations/tls.md))."),
            new Described("MEDJAVA_DICOM_BIND", "`MEDJAVA_HTTP_BIND`", "`medjava.dicom.bind`'s environment form: "
                    + "when set, the launcher does not make the DICOM port follow `MEDJAVA_HTTP_BIND`."),
            new Described("MEDJAVA_DICOM_PORT", "", "`medjava.dicom.port`'s environment form: when set (not `0`), "
                    + "with HTTPS on, `./medjava start` opens DICOM TLS too (`MEDJAVA_DICOM_TLS_PORT`)."),
            new Described("MEDJAVA_DICOM_TLS_PORT", "`2762` while HTTPS and DICOM are on", "The DICOM TLS port "
                    + "(`medjava.dicom.tls-port`: the same AE title and services as the DICOM port, with the HTTPS "
                    + "certificate); `off`: none. `./medjava start` sets it only with HTTPS and `MEDJAVA_DICOM_PORT` "
                    + "on ([TLS](operations/tls.md#dicom-tls))."),
            new Described("MEDJAVA_HTTPS_PORT", "`8443`", "The store front's HTTPS port (`medjava.https.port`), on "
                    + "every interface unless `MEDJAVA_HTTP_BIND` or `MEDJAVA_HTTPS_BIND` says otherwise; `off`: no "
                    + "HTTPS (nor DICOM TLS), and HTTP on every interface as before ([TLS](operations/tls.md))."),
            new Described("MEDJAVA_TLS", "", "`off`: the same as `MEDJAVA_HTTPS_PORT=off`."),
            new Described("MEDJAVA_TLS_KEYSTORE", "`<data>/tls/store.p12`, made on the first start",
                    "`medjava.tls.keystore`'s environment form: the administrator's certificate (PKCS#12 or JKS, "
                    + "with `MEDJAVA_TLS_KEYSTORE_PASSWORD`), used as it is; unset, `./medjava start` makes a "
                    + "self-signed one once and gives it to the store ([TLS](operations/tls.md))."),
            new Described("MEDJAVA_PUBLIC_URL", "`http://localhost:<MEDJAVA_PORT>`", "`medjava.public-url`'s "
                    + "environment form; unset, `./medjava start` sets `medjava.public-url` to the local URL (with the "
                    + "bind address when one is set) and prints it."),
            new Described("MEDJAVA_DATA", "`data/store` (`./medjava cluster`: `data/cluster`)", "The data directory "
                    + "(`medjava.data-dir`) of `start`, `stop`, `status` and `admin`; a relative path is taken from "
                    + "the current directory, as are the paths given to `./medjava filter` and "
                    + "`admin backup`/`restore`."),
            new Described("MEDJAVA_DATA_DIR", "", "Another name for `MEDJAVA_DATA`, which wins when both are set."),
            new Described("MEDJAVA_JAVA_OPTS", "", "More options for the store's JVM (and each cluster node's), after "
                    + "the launcher's own, e.g. `-Xmx4g -Dmedjava.upload.max-bytes=…`."),
            new Described("MEDJAVA_VIEWER_JAVA_OPTS", "", "Options for the viewer's JVM, e.g. "
                    + "`-Dmedjava.viewer.stack-cache-mb=512`."),
            new Described("MEDJAVA_NO_BUILD", "", "`1`: use what is built; never build or install."),
            new Described("MEDJAVA_CLI_JAVA_OPTS", "", "Options for the command line's own JVM (the `medjava` shim "
                    + "runs the Java command line with them), e.g. `-Xmx256m`."),
            new Described("MEDJAVA_NO_VIEWER", "", "`1`: `./medjava start` opens no viewer, even when a display "
                    + "exists."),
            new Described("MEDJAVA_START_TIMEOUT", "`300`", "Seconds `./medjava start` waits for the store to "
                    + "answer."),
            new Described("MEDJAVA_STOP_TIMEOUT", "`60`", "Seconds `./medjava stop` waits after TERM before it kills "
                    + "the store."),
            new Described("MEDJAVA_NODES", "`3`", "`./medjava cluster`: how many store nodes."),
            new Described("MEDJAVA_NODE_HEAP", "`512m`", "`./medjava cluster`: each node's heap."),
            new Described("MEDJAVA_ADMIN_USER", "`admin`", "`./medjava admin backup` of a running store: the account "
                    + "it logs in with."),
            new Described("MEDJAVA_ADMIN_PASSWORD", "asked", "`admin backup` of a running store: that account's "
                    + "password (asked on the terminal when unset)."),
            new Described("MEDJAVA_NO_FUZZ", "", "`1`: `./medjava test` skips the time-boxed round of fuzzing "
                    + "(about 4 min) after the build."),
            new Described("MEDJAVA_PASSWORD", "asked", "The viewer's password for `--server` (never on its command "
                    + "line; asked when unset)."));

    /** Plain system properties ({@code -D} only: no environment form), read by the programs themselves. */
    static final List<Described> SYSTEM_PROPERTIES = List.of(
            new Described("medjava.home", "", "Set by the `medjava` shim: the checkout the Java command line works "
                    + "in (its builds, `data/`, the store's WAR)."),
            new Described("medjava.version", "", "Set by the launcher: the version the start banner shows."),
            new Described("medjava.plugins", "", "The plugin directory of the viewer (the bundled plugins; the "
                    + "launcher sets it) and of the filter command line (else `--plugins DIR`)."),
            new Described("medjava.verbose", "`false`", "The filter command line logs at INFO (plugin loads, "
                    + "PixelMed's lines) rather than WARNING."),
            new Described("medjava.test.seam-dir", "", "Fault tests only, never in production: a directory "
                    + "through which a test holds a write at one of its steps (store-core `DirectorySeam`); unset, "
                    + "nothing is checked."),
            new Described("medjava.filters.scalar", "`false`", "`true`: the filters' scalar code instead of the "
                    + "Vector API kernels (which run only with 256-bit vectors or wider)."),
            new Described("medjava.viewer.home", "`~/.medjava`", "The viewer's per-user directory (recent servers, "
                    + "window presets)."),
            new Described("medjava.viewer.stack-cache-mb", "an eighth of the heap, at most 256", "MiB the viewer's "
                    + "stack cache (decoded images around the one shown) may hold."),
            new Described("medjava.viewer.manifest-seconds", "`5`", "How often, in seconds, the viewer checks the "
                    + "store's filter manifest; 0: every `medjava.viewer.manifest-millis`."),
            new Described("medjava.viewer.manifest-millis", "`500`", "The check's interval in milliseconds, when "
                    + "`medjava.viewer.manifest-seconds` is 0 (tests)."),
            new Described("medjava.viewer.trusted-publishers", "the bundled plugins' `trusted-publishers/`", "The "
                    + "viewer's trusted plugin publishers: a directory of PEM or DER certificates (see "
                    + "[Signed plugins](filters.md#signed-plugins))."),
            new Described("medjava.viewer.plugin-signatures", "`require`", "What the viewer does with a plugin "
                    + "not signed by a trusted publisher: `require` (refused), `quarantine` (refused, kept in its "
                    + "download directory's `quarantine/`) or `off` (loaded)."),
            new Described("medjava.viewer.filters", "`workers` on Linux, else `in-process`", "How the viewer runs "
                    + "filter plugins: `workers` (worker processes, confined as far as the machine allows; see "
                    + "[the viewer](viewer.md#filter-plugins-in-worker-processes)) or `in-process` (inside the "
                    + "viewer, signature checks only)."),
            new Described("medjava.viewer.filter-workers", "`2`", "The viewer's filter worker processes (1–64)."),
            new Described("medjava.viewer.filter-worker-heap-mb", "`512`", "The heap of each of the viewer's filter "
                    + "workers, in MiB (its memory cap is this plus 192)."));

    /** Development tools (test support, benchmarks): their properties belong with the tests, not here. */
    private static final Set<String> NOT_SCANNED = Set.of("benchmarks", "filter-testkit", "image-store-testkit");
    private static final Set<String> PRUNED = Set.of(".git", "target", "node_modules", "testdata", "data", "docs");

    private static final Pattern CONFIG_PROPERTY = Pattern.compile("@ConfigProperty\\s*\\(");
    /** A settings record's key: {@code static final Key NAME = Key.of("medjava.x", "default");}. */
    private static final Pattern KEY_DECLARATION = Pattern.compile(
            "\\bKey\\.of\\(\\s*\"(medjava\\.[^\"]*)\"\\s*(?:,\\s*\"([^\"]*)\"\\s*)?\\)");
    private static final Pattern NAME = Pattern.compile("\\bname\\s*=\\s*\"([^\"]*)\"");
    private static final Pattern DEFAULT = Pattern.compile("\\bdefaultValue\\s*=\\s*\"([^\"]*)\"");
    private static final Pattern KEY_READ = Pattern.compile(
            "\\b(?:getOptionalValue|getValue|getConfigValue|setting|apply)\\(\\s*\"(medjava\\.[a-z0-9.-]+)\"");
    private static final Pattern PROPERTY_READ = Pattern.compile(
            "\\b(?:System\\.getProperty|Long\\.getLong|Integer\\.getInteger|Boolean\\.getBoolean)\\(\\s*"
                    + "(?:\"(medjava\\.[^\"]+)\"|([A-Z][A-Z0-9_]*)\\s*[,)])");
    /** {@code System.getenv}, and the command line's {@code Context.env}/{@code isSet}/{@code seconds}. */
    private static final Pattern VARIABLE_READ = Pattern.compile(
            "\\b(?:System\\.getenv|env|isSet|seconds)\\(\\s*(?:ctx\\s*,\\s*)?(?:\"(MEDJAVA_[A-Z0-9_]+)\"|([A-Z][A-Z0-9_]*)\\s*[,)])");
    private static final Pattern SCRIPT_READ = Pattern.compile("\\$\\{?(MEDJAVA_[A-Z0-9_]+)");

    final Path root;
    final List<Key> keys = new ArrayList<>();
    /** Keys read by name outside a {@code @ConfigProperty} field: name → where. */
    final Map<String, Set<String>> keyReads = new TreeMap<>();
    /** System properties read with {@code System.getProperty} and its kin: name → where. */
    final Map<String, Set<String>> propertyReads = new TreeMap<>();
    /** Environment variables read by the launcher or with {@code System.getenv}: name → where. */
    final Map<String, Set<String>> variableReads = new TreeMap<>();
    /** Reads whose name could not be told from the source (a constant defined elsewhere). */
    final List<String> unresolved = new ArrayList<>();

    ConfigurationReference(Path root) {
        this.root = root;
        try {
            List<Path> sources = new ArrayList<>();
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                    String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                    boolean inSources = root.relativize(dir).toString().replace('\\', '/').contains("src/");
                    return !inSources && (PRUNED.contains(name) || NOT_SCANNED.contains(name))
                            ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    String path = root.relativize(file).toString().replace('\\', '/');
                    if (path.contains("src/main/java/") && path.endsWith(".java")) {
                        sources.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
            for (Path file : sources.stream().sorted().toList()) {
                scanJava(file);
            }
            scanScript(root.resolve("medjava"), "`./medjava`");
            scanScript(root.resolve("deploy/local-cluster.sh"), "`./medjava cluster`");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String environmentForm(String key) {
        return key.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
    }

    /** {@code viewer (ViewerOptions)}: the module and the class. */
    private String where(Path file) {
        String path = root.relativize(file).toString().replace('\\', '/');
        String module = path.substring(0, path.indexOf("/src/main/java/"));
        String name = file.getFileName().toString();
        return module.substring(module.lastIndexOf('/') + 1) + " (`" + name.substring(0, name.length() - 5) + "`)";
    }

    private void scanJava(Path file) throws IOException {
        String text = Files.readString(file);
        String where = where(file);
        Matcher m = CONFIG_PROPERTY.matcher(text);
        while (m.find()) {
            int end = closing(text, m.end() - 1);
            String annotation = text.substring(m.start(), end + 1);
            Matcher name = NAME.matcher(annotation);
            if (!name.find()) {
                unresolved.add("@ConfigProperty without a literal name in " + where);
                continue;
            }
            Matcher value = DEFAULT.matcher(annotation);
            keys.add(new Key(name.group(1), value.find() ? value.group(1) : null, javadocAbove(text, m.start()),
                    root.relativize(file) + ":" + lineOf(text, m.start())));
        }
        Matcher declared = KEY_DECLARATION.matcher(text);
        while (declared.find()) {
            keys.add(new Key(declared.group(1), declared.group(2), javadocAbove(text, declared.start()),
                    root.relativize(file) + ":" + lineOf(text, declared.start())));
        }
        collect(KEY_READ.matcher(text), text, where, keyReads);
        collect(PROPERTY_READ.matcher(text), text, where, propertyReads);
        collect(VARIABLE_READ.matcher(text), text, where, variableReads);
    }

    private void collect(Matcher m, String text, String where, Map<String, Set<String>> into) {
        while (m.find()) {
            String name = m.group(1);
            if (name == null) { // a constant: its value, when the same file defines it
                Matcher constant = Pattern.compile("\\bString\\s+" + m.group(2) + "\\s*=\\s*\"([^\"]*)\"")
                        .matcher(text);
                if (!constant.find()) {
                    unresolved.add(m.group(2) + " at " + where + ":" + lineOf(text, m.start()));
                    continue;
                }
                name = constant.group(1);
                if (!name.startsWith("medjava.") && !name.startsWith("MEDJAVA_")) {
                    continue;
                }
            }
            into.computeIfAbsent(name, k -> new TreeSet<>()).add(where);
        }
    }

    private void scanScript(Path script, String where) throws IOException {
        for (String line : Files.readAllLines(script)) {
            if (line.strip().startsWith("#")) {
                continue;
            }
            Matcher m = SCRIPT_READ.matcher(line);
            while (m.find()) {
                variableReads.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(where);
            }
        }
    }

    private static int closing(String text, int open) {
        int depth = 0;
        boolean quoted = false;
        for (int i = open; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' && text.charAt(i - 1) != '\\') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')' && --depth == 0) {
                return i;
            }
        }
        throw new IllegalStateException("unbalanced @ConfigProperty(");
    }

    private static int lineOf(String text, int offset) {
        return (int) text.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
    }

    /** The javadoc right above the annotations before {@code offset} (other annotations may come between), or null. */
    static String javadocAbove(String text, int offset) {
        String[] lines = text.substring(0, text.lastIndexOf('\n', offset) + 1).split("\n");
        int i = lines.length - 1;
        while (i >= 0 && lines[i].strip().startsWith("@")) {
            i--;
        }
        if (i < 0 || !lines[i].strip().endsWith("*/")) {
            return null;
        }
        StringBuilder doc = new StringBuilder();
        for (int j = i; j >= 0; j--) {
            doc.insert(0, lines[j] + "\n");
            if (lines[j].contains("/**")) {
                String body = doc.substring(doc.indexOf("/**") + 3, doc.lastIndexOf("*/"));
                String joined = body.lines().map(l -> l.strip().replaceFirst("^\\*\\s?", ""))
                        .reduce((a, b) -> a + " " + b).orElse("").strip().replaceAll("\\s+", " ");
                return joined.isEmpty() ? null : joined;
            }
            if (lines[j].contains("/*")) {
                return null; // a block comment, not javadoc
            }
        }
        return null;
    }

    /** Javadoc's inline tags and entities as Markdown; {@code docs/x.md} outside code as a relative link. */
    static String markdown(String javadoc) {
        String text = inlineTags(javadoc).replaceAll("<p>", " ").replace("&lt;", "<").replace("&gt;", ">")
                .replace("&amp;", "&");
        String[] parts = text.split("`", -1);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                out.append('`');
            }
            out.append(i % 2 == 1 ? parts[i]
                    : parts[i].replaceAll("\\bdocs/([A-Za-z0-9_./-]+\\.md)", "[docs/$1]($1)"));
        }
        return out.toString().replace("|", "\\|");
    }

    /** {@code {@code x}} and its kin as {@code `x`}, balanced braces inside kept ({@code {@code /a/{uid}}}). */
    private static String inlineTags(String javadoc) {
        java.util.regex.Matcher tag = java.util.regex.Pattern.compile("\\{@(?:code|literal|link|linkplain|value)\\s+")
                .matcher(javadoc);
        StringBuilder out = new StringBuilder();
        int from = 0;
        while (tag.find(from)) {
            int depth = 1;
            int i = tag.end();
            for (; i < javadoc.length() && depth > 0; i++) {
                char c = javadoc.charAt(i);
                depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            }
            out.append(javadoc, from, tag.start()).append('`').append(javadoc, tag.end(), depth == 0 ? i - 1 : i)
                    .append('`');
            from = i;
        }
        return out.append(javadoc.substring(from)).toString();
    }

    /** The default as written, with sizes in binary units and square pixel counts as such. */
    static String defaultOf(Key key) {
        if (key.defaultValue() == null) {
            return "unset";
        }
        if (key.defaultValue().isEmpty()) {
            return "empty";
        }
        String shown = "`" + key.defaultValue() + "`";
        if (key.defaultValue().matches("[0-9]{4,18}")) {
            long n = Long.parseLong(key.defaultValue());
            if (key.name().endsWith("-bytes")) {
                String[] units = {"KiB", "MiB", "GiB", "TiB"};
                String unit = null;
                long value = n;
                for (int i = 0; i < units.length && value % 1024 == 0 && value >= 1024; i++) {
                    value /= 1024;
                    unit = units[i];
                }
                return unit == null ? shown : shown + " (" + value + " " + unit + ")";
            }
            long side = Math.round(Math.sqrt(n));
            if (key.name().endsWith("-pixels") && side * side == n) {
                return shown + " (" + side + "²)";
            }
        }
        return shown;
    }

    static String anchor(String title) {
        return title.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 -]", "").replace(' ', '-');
    }

    String render() {
        Map<String, List<Key>> bySection = new java.util.LinkedHashMap<>();
        SECTIONS.forEach(s -> bySection.put(s.title(), new ArrayList<>()));
        bySection.put(OTHER_SECTION, new ArrayList<>());
        for (Key key : keys.stream().sorted(java.util.Comparator.comparing(Key::name)).toList()) {
            String title = SECTIONS.stream().filter(s -> s.holds(key.name())).map(Section::title).findFirst()
                    .orElse(OTHER_SECTION);
            bySection.get(title).add(key);
        }
        bySection.values().removeIf(List::isEmpty);

        StringBuilder md = new StringBuilder();
        md.append("# Configuration reference\n\n");
        md.append("<!-- Generated by ConfigurationReferenceTest (image-store) from the sources: do not edit. -->\n");
        md.append("This file is generated from the code, and a test fails when it and the code disagree. To change a "
                + "key's text, edit the javadoc of its `Key` constant (the `*Settings` records of image-store's "
                + "`config` package); for the launcher's variables and the programs' system properties, the tables in "
                + "`ConfigurationReference` "
                + "(image-store's tests). Then regenerate:\n\n");
        md.append("```sh\n").append(REGENERATE).append("\n```\n\n");
        md.append("""
                ## How settings are given

                The store's settings are MicroProfile Config keys (`medjava.*`), read once at start, from, in this \
                order:

                1. a **system property**: `-Dmedjava.upload.max-bytes=…`, e.g. in `MEDJAVA_JAVA_OPTS`;
                2. else an **environment variable**, the key's environment form: **upper case, every `.` and `-` \
                replaced by `_`** (`medjava.upload.max-bytes` → `MEDJAVA_UPLOAD_MAX_BYTES`, \
                `medjava.dicom.allowed-aets` → `MEDJAVA_DICOM_ALLOWED_AETS`, `medjava.storage.s3.secret-key` → \
                `MEDJAVA_STORAGE_S3_SECRET_KEY`);
                3. else the default below. (`META-INF/microprofile-config.properties` in the WAR sets no `medjava.*` \
                key.)

                Settings are checked at start; a wrong one stops the start with a message that names it. Sizes are \
                in bytes. As a service (`deploy/systemd`), settings go into `/etc/medjava/medjava.env` (mode 600: \
                it may hold secrets), keys in their environment form beside the launcher's variables; \
                `docker/compose.yaml` sets them in the containers' environment (its own variables: [docs/cluster.md](cluster.md)).

                `./medjava start` gives the store, as system properties (which outrank the environment): \
                `medjava.data-dir` (from `MEDJAVA_DATA`), `medjava.http.port` (`MEDJAVA_PORT`), \
                `medjava.http.backend-port`, `medjava.public-url` (unless `MEDJAVA_PUBLIC_URL` is set), \
                `medjava.http.bind` (`MEDJAVA_HTTP_BIND`, else `127.0.0.1` while HTTPS is on) and \
                `medjava.dicom.bind` (when `MEDJAVA_HTTP_BIND` is set, unless `MEDJAVA_DICOM_BIND` is), \
                `medjava.https.port` (`MEDJAVA_HTTPS_PORT`, `8443`), `medjava.https.bind` (`*` while HTTP is on \
                the loopback by default), `medjava.tls.keystore` (its own certificate, unless \
                `MEDJAVA_TLS_KEYSTORE` is set; the password in the store's environment), \
                `medjava.dicom.tls-port` (`MEDJAVA_DICOM_TLS_PORT`, `2762`, while HTTPS and DICOM are on), \
                `medjava.seed.images`, \
                `medjava.seed.plugins`, `medjava.banner.file` and `medjava.version`. Change those through the \
                [launcher's variables](#environment-variables-that-are-not-keys).

                """);
        for (String title : bySection.keySet()) {
            md.append("- [").append(title).append("](#").append(anchor(title)).append(")\n");
        }
        md.append("- [Environment variables that are not keys](#environment-variables-that-are-not-keys)\n");
        md.append("- [System properties of the programs](#system-properties-of-the-programs)\n");
        for (Map.Entry<String, List<Key>> section : bySection.entrySet()) {
            md.append("\n## ").append(section.getKey()).append("\n\n");
            SECTIONS.stream().filter(s -> s.title().equals(section.getKey()) && !s.intro().isEmpty()).findFirst()
                    .ifPresent(s -> md.append(s.intro().strip()).append("\n\n"));
            md.append("| key | environment variable | default | meaning |\n|---|---|---|---|\n");
            for (Key key : section.getValue()) {
                md.append("| `").append(key.name()).append("` | `").append(key.environment()).append("` | ")
                        .append(defaultOf(key)).append(" | ")
                        .append(key.meaning() == null ? "**undocumented**" : markdown(key.meaning())).append(" |\n");
            }
        }
        md.append("""

                ## Environment variables that are not keys

                Read by the launcher (`./medjava`) or by a tool itself, not by the store: the store sees them only \
                through the keys the launcher sets. A key's environment form is listed here when the launcher \
                does more with it.

                | variable | default | read by | meaning |
                |---|---|---|---|
                """);
        for (Described v : VARIABLES) {
            md.append(row(v, variableReads));
        }
        md.append("""

                ## System properties of the programs

                Plain Java system properties (`-D…` only, no environment form), read by the viewer, the filter \
                command line and the filter API. The test kit's and the benchmarks' properties are described with \
                the tests.

                | property | default | read by | meaning |
                |---|---|---|---|
                """);
        for (Described p : SYSTEM_PROPERTIES) {
            md.append(row(p, propertyReads));
        }
        return md.toString();
    }

    private static String row(Described d, Map<String, Set<String>> reads) {
        return "| `" + d.name() + "` | " + (d.defaultValue().isEmpty() ? "unset" : d.defaultValue()) + " | "
                + String.join(", ", reads.getOrDefault(d.name(), Set.of())) + " | " + d.meaning().replace("|", "\\|")
                + " |\n";
    }
}
