package org.medjava.store.testkit.peers;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.medjava.store.testkit.Ports;

/**
 * A real OpenID provider for the tests: Keycloak's server distribution (from Maven Central, unpacked into
 * {@code target/keycloak} by the build), started in development mode on a free loopback port with the test realm
 * {@code medjava-realm.json} (beside this class) imported: clients {@code medjava} (the store),
 * {@code medjava-viewer} (the desktop viewer: public, PKCE, loopback redirects), {@code router} (a machine client
 * with the uploader role) and {@code elsewhere} (tokens for another audience); users alice (reader, cardiology), bob
 * ({@code pacs-admins}, research) and carol (no role). Keycloak needs Java 21 or newer: the newest JDK found under
 * {@code /usr/lib/jvm} (or {@code -Dmedjava.keycloak.java}) runs it. The modules whose tests start it (image-store,
 * viewer) unpack the distribution into their {@code target/keycloak}.
 */
public final class Keycloak implements AutoCloseable {
    public static final String REALM = "medjava";
    public static final String CLIENT = "medjava";
    public static final String CLIENT_SECRET = "medjava-client-secret";
    static final Path DIST = Path.of("target", "keycloak").toAbsolutePath();

    private final Process process;
    private final int port;
    private final Path log;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private Keycloak(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Starts a fresh Keycloak (its development database emptied) and waits until the realm answers. */
    public static Keycloak start() throws IOException, InterruptedException {
        Path home = home();
        Path data = home.resolve("data");
        deleteTree(data.resolve("h2"));
        Files.createDirectories(data.resolve("import"));
        try (var realm = Keycloak.class.getResourceAsStream("medjava-realm.json")) {
            Files.copy(realm, data.resolve("import/medjava-realm.json"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        int port = Ports.free();
        Path log = Files.createTempFile("keycloak", ".log");
        ProcessBuilder pb = new ProcessBuilder("bash", home.resolve("bin/kc.sh").toString(), "start-dev",
                "--http-host=127.0.0.1", "--http-port=" + port, "--import-realm", "--health-enabled=false",
                "--http-management-port=" + Ports.free(), "--cache=local")
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("JAVA_HOME", java21().toString());
        pb.environment().put("JAVA_OPTS_KC_HEAP", "-Xms64m -Xmx512m");
        pb.environment().put("KC_BOOTSTRAP_ADMIN_USERNAME", "admin");
        pb.environment().put("KC_BOOTSTRAP_ADMIN_PASSWORD", "admin-password");
        Keycloak keycloak = new Keycloak(pb.start(), port, log);
        // a test JVM ended without its @AfterAll (a timeout, TERM) still takes the provider along
        Process started = keycloak.process;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            started.descendants().forEach(ProcessHandle::destroy);
            started.destroy();
        }, "keycloak-stop"));
        Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
        while (Instant.now().isBefore(deadline)) {
            if (!keycloak.process.isAlive()) {
                throw new IllegalStateException("Keycloak exited: " + tail(log));
            }
            try {
                HttpResponse<String> r = keycloak.http.send(HttpRequest.newBuilder(URI.create(keycloak.issuer()
                        + "/.well-known/openid-configuration")).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return keycloak;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        keycloak.close();
        throw new IllegalStateException("Keycloak did not answer within 3 minutes: " + tail(log));
    }

    /** The realm's issuer URL, as its tokens name it. */
    public String issuer() {
        return "http://127.0.0.1:" + port + "/realms/" + REALM;
    }

    /** An access token of a user, by the password grant of the store's client (enabled for the tests). */
    public String password(String user, String password) throws IOException, InterruptedException {
        return token(CLIENT, CLIENT_SECRET, Map.of("grant_type", "password", "username", user, "password", password,
                "scope", "openid"));
    }

    /** An access token of a machine client, by the client-credentials grant. */
    public String clientCredentials(String client, String secret) throws IOException, InterruptedException {
        return token(client, secret, Map.of("grant_type", "client_credentials"));
    }

    private String token(String client, String secret, Map<String, String> form)
            throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(issuer()
                        + "/protocol/openid-connect/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString((client + ":"
                        + secret).getBytes(StandardCharsets.UTF_8)))
                .POST(HttpRequest.BodyPublishers.ofString(form(form))).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("Keycloak gave no token (" + r.statusCode() + "): " + r.body());
        }
        Matcher m = Pattern.compile("\"access_token\"\\s*:\\s*\"([^\"]+)\"").matcher(r.body());
        if (!m.find()) {
            throw new IllegalStateException("no access_token in " + r.body());
        }
        return m.group(1);
    }

    /**
     * What a user does in the browser sent to {@code authorization} (the provider's authorization URL of a client):
     * the provider's own login form, read and sent with the user's password, with the provider's cookies kept.
     *
     * @return where the provider sends the browser back: the client's redirect URI with {@code code} and {@code state}
     */
    public URI logIn(URI authorization, String user, String password) throws IOException, InterruptedException {
        // cookies by name only: Keycloak marks them Secure, which a cookie manager would not send over the tests' HTTP
        Map<String, String> cookies = new java.util.LinkedHashMap<>();
        HttpResponse<String> page = withCookies(cookies, HttpRequest.newBuilder(authorization));
        Matcher action = Pattern.compile("action=\"([^\"]+login-actions/authenticate[^\"]*)\"").matcher(page.body());
        if (page.statusCode() != 200 || !action.find()) {
            throw new IllegalStateException("no login form (" + page.statusCode() + "): " + page.body());
        }
        HttpResponse<String> answer = withCookies(cookies, HttpRequest.newBuilder(authorization.resolve(action.group(1)
                        .replace("&amp;", "&")))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(Map.of("username", user, "password", password,
                        "credentialId", "")))));
        if (answer.statusCode() != 302) {
            throw new IllegalStateException("the login was not accepted (" + answer.statusCode() + "): "
                    + answer.body());
        }
        return URI.create(answer.headers().firstValue("Location").orElseThrow());
    }

    private HttpResponse<String> withCookies(Map<String, String> cookies, HttpRequest.Builder request)
            throws IOException, InterruptedException {
        if (!cookies.isEmpty()) {
            request.header("Cookie", cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining("; ")));
        }
        HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        for (String set : r.headers().allValues("Set-Cookie")) {
            String pair = set.split(";", 2)[0];
            int eq = pair.indexOf('=');
            String value = pair.substring(eq + 1).trim();
            if (value.isEmpty() || set.contains("Max-Age=0")) {
                cookies.remove(pair.substring(0, eq).trim());
            } else {
                cookies.put(pair.substring(0, eq).trim(), value);
            }
        }
        return r;
    }

    /**
     * Rotates the realm's signing key: a new RSA key provider with a higher priority, through the admin API. Tokens
     * issued from now on carry its key id; the old key stays published.
     */
    public void rotateKeys() throws IOException, InterruptedException {
        String admin = adminToken();
        HttpResponse<String> realm = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/admin/realms/" + REALM)).header("Authorization", "Bearer " + admin).build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher id = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"").matcher(realm.body());
        if (realm.statusCode() != 200 || !id.find()) {
            throw new IllegalStateException("realm not read: " + realm.statusCode() + " " + realm.body());
        }
        String component = """
                {"name": "rotated-%d", "providerId": "rsa-generated", "providerType": "org.keycloak.keys.KeyProvider",
                 "parentId": "%s", "config": {"priority": ["%d"], "keySize": ["2048"], "active": ["true"],
                 "enabled": ["true"], "algorithm": ["RS256"]}}""".formatted(System.nanoTime(), id.group(1),
                System.currentTimeMillis() / 1000);
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/admin/realms/" + REALM + "/components"))
                .header("Authorization", "Bearer " + admin).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(component)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 201) {
            throw new IllegalStateException("no new key: " + r.statusCode() + " " + r.body());
        }
    }

    private String adminToken() throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/realms/master/protocol/openid-connect/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(Map.of("grant_type", "password", "client_id",
                        "admin-cli", "username", "admin", "password", "admin-password")))).build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher m = Pattern.compile("\"access_token\"\\s*:\\s*\"([^\"]+)\"").matcher(r.body());
        if (!m.find()) {
            throw new IllegalStateException("no admin token: " + r.body());
        }
        return m.group(1);
    }

    /** An {@code application/x-www-form-urlencoded} body. */
    public static String form(Map<String, String> fields) {
        return fields.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
    }

    /** Stops the provider (an outage, for the tests that need one). */
    @Override
    public void close() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static Path home() throws IOException {
        try (Stream<Path> dirs = Files.list(DIST)) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve("bin/kc.sh"))).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no Keycloak under " + DIST + ": the build unpacks "
                            + "org.keycloak:keycloak-quarkus-dist there (the module pom's unpack-keycloak execution)"));
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalStateException("no " + DIST + ": the build unpacks Keycloak there (the unpack-keycloak "
                    + "execution of the module's pom)", e);
        }
    }

    /** A JDK of release 21 or newer: Keycloak 26 needs it, the store itself keeps to 17. */
    static Path java21() throws IOException {
        String given = System.getProperty("medjava.keycloak.java");
        if (given != null) {
            return Path.of(given);
        }
        List<Path> candidates;
        try (Stream<Path> jvms = Files.list(Path.of("/usr/lib/jvm"))) {
            candidates = jvms.filter(j -> Files.isExecutable(j.resolve("bin/java"))).toList();
        }
        return candidates.stream().filter(j -> release(j) >= 21).max(Comparator.comparingInt(Keycloak::release))
                .orElseThrow(() -> new IllegalStateException("Keycloak needs Java 21 or newer; none under /usr/lib/jvm"
                        + " (give one with -Dmedjava.keycloak.java=JAVA_HOME)"));
    }

    private static int release(Path jdk) {
        try {
            for (String line : Files.readAllLines(jdk.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String v = line.substring(line.indexOf('"') + 1);
                    return Integer.parseInt(v.split("[.\"]")[0]);
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
