package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The store's life as an administrator drives it: the real {@code ./medjava} script on the built store (no build:
 * {@code MEDJAVA_NO_BUILD=1}), a free port and a data directory of its own under {@code target/lifecycle-it/}.
 * Start in the background, status, refusals (a second start, a port in use, a password reset under a running store),
 * a hung (SIGSTOPped) store reported unhealthy, stop, stop again, the offline password reset, a later start, and the
 * foreground start stopped as Ctrl-C stops it; and the listening sockets of the store's process: its HTTPS port (its
 * front's) on every interface with the certificate the first start made, its HTTP port on the loopback only, and
 * Payara's listener behind it on the loopback only.
 */
class LifecycleIT {

    private static final Path ROOT = Path.of(System.getProperty("medjava.root", "..")).toAbsolutePath().normalize();
    private static final Duration START = Duration.ofMinutes(6);
    private static final Pattern PASSWORD = Pattern.compile("login: +admin / (\\S+)");
    private static final Set<String> LOOPBACK = Set.of("127.0.0.1", "[::ffff:127.0.0.1]", "[::1]");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private Path work;
    private Path data;
    private int port;
    private int httpsPort;

    /** What one run of the script did. */
    record Run(int status, String output) {
    }

    @BeforeEach
    void freshDataDirectory() throws IOException {
        work = ROOT.resolve("image-store/target/lifecycle-it");
        deleteTree(work);
        data = work.resolve("data");
        port = freePort();
        httpsPort = freePort();
    }

    @AfterEach
    void stopWhatever() throws Exception {
        script(Duration.ofMinutes(2), Map.of(), "stop"); // a failed test leaves no store behind
    }

    @Test
    @Timeout(value = 25, unit = TimeUnit.MINUTES)
    void startStatusRefusalsHungStopResetAndStartAgain() throws Exception {
        Run start = script(START, Map.of(), "start", "--background");
        assertThat(start.status()).as(start.output()).isZero();
        assertThat(start.output()).contains("store:       http://localhost:" + port + "/",
                "viewer:      http://localhost:" + port + "/viewer/", "data:        " + data,
                "log:         " + data.resolve("logs/medjava.log"), "running in the background");
        assertThat(lastLines(start.output(), 3)).as("the banner comes last")
                .contains("started in:", "running in the background");
        Matcher m = PASSWORD.matcher(start.output());
        assertThat(m.find()).as(start.output()).isTrue();
        String firstPassword = m.group(1);
        long pid = Long.parseLong(Files.readString(data.resolve("medjava.pid")).trim());
        assertThat(running(pid)).as("the pid file names a live process").isTrue();
        assertThat(data.resolve("banner.txt")).as("printed once, then deleted").doesNotExist();
        String console = Files.readString(data.resolve("logs/console.log"));
        assertThat(console).as("the password stays out of the logs").doesNotContain(firstPassword);
        assertThat(console).as("Payara's output, with no colour codes in the file").contains("PayaraMicro")
                .doesNotContain("\u001b[");

        Map<Integer, String> listening = listening(pid);
        assertThat(listening).as("a single node opens only its documented ports, and Payara's behind them").hasSize(3);
        assertThat(listening.get(httpsPort)).as("the front's HTTPS, on every interface").isIn("0.0.0.0", "*", "[::]");
        listening.forEach((p, address) -> assertThat(p == httpsPort || LOOPBACK.contains(address))
                .as("port %d on %s: HTTP and Payara's listener on the loopback only", p, address).isTrue());
        assertThat(get("/admin/users", "admin", firstPassword)).isEqualTo(200);
        httpsByDefault(start.output(), firstPassword);

        Run status = script(Duration.ofMinutes(1), Map.of(), "status");
        assertThat(status.status()).as(status.output()).isZero();
        assertThat(status.output()).contains("running, healthy", "pid:      " + pid,
                "url:      http://localhost:" + port + "/", "uptime:", "health:   200");
        assertThat(status.output()).containsPattern("MedJava image store \\S+: running");

        Run again = script(Duration.ofMinutes(1), Map.of(), "start", "--background");
        assertThat(again.status()).isEqualTo(1);
        assertThat(again.output()).contains("already running on " + data + " (pid " + pid + ")");
        Run portTaken = script(Duration.ofMinutes(1), Map.of("MEDJAVA_DATA", work.resolve("other").toString()),
                "start", "--background");
        assertThat(portTaken.status()).isEqualTo(1);
        assertThat(portTaken.output()).contains("port " + port + " is in use");

        Run resetWhileRunning = script(Duration.ofMinutes(1), Map.of(), "admin", "reset-password", "admin");
        assertThat(resetWhileRunning.status()).isEqualTo(3);
        assertThat(resetWhileRunning.output()).contains("is running (pid " + pid + ")", "nothing was changed");

        new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start().waitFor();
        try {
            Run hung = script(Duration.ofMinutes(1), Map.of(), "status");
            assertThat(hung.status()).as(hung.output()).isEqualTo(1);
            assertThat(hung.output()).contains("UNHEALTHY").doesNotContain("healthy\n");
        } finally {
            new ProcessBuilder("kill", "-CONT", Long.toString(pid)).start().waitFor();
        }

        Run stop = script(Duration.ofMinutes(3), Map.of(), "stop");
        assertThat(stop.status()).as(stop.output()).isZero();
        assertThat(stop.output()).contains("stopping the image store (pid " + pid + ")", "stopped");
        assertThat(running(pid)).isFalse();
        assertThat(data.resolve("medjava.pid")).doesNotExist();
        Run stopAgain = script(Duration.ofMinutes(1), Map.of(), "stop");
        assertThat(stopAgain.status()).isEqualTo(1);
        assertThat(stopAgain.output()).contains("no image store is running on " + data);
        Run stopped = script(Duration.ofMinutes(1), Map.of(), "status");
        assertThat(stopped.status()).isEqualTo(3);
        assertThat(stopped.output()).contains("not running");

        Run reset = script(Duration.ofMinutes(2), Map.of(), "admin", "reset-password", "admin");
        assertThat(reset.status()).as(reset.output()).isZero();
        Matcher r = Pattern.compile("new password for admin \\(admin\\): (\\S+)").matcher(reset.output());
        assertThat(r.find()).as(reset.output()).isTrue();
        String newPassword = r.group(1);

        Run later = script(START, Map.of(), "start", "--background");
        assertThat(later.status()).as(later.output()).isZero();
        assertThat(later.output()).contains("accounts [admin]").doesNotContain("login:       admin /");
        assertThat(get("/admin/users", "admin", newPassword)).isEqualTo(200);
        assertThat(get("/admin/users", "admin", firstPassword)).as("the old password").isEqualTo(401);
        assertThat(script(Duration.ofMinutes(3), Map.of(), "stop").status()).isZero();
    }

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void inTheForegroundCtrlCStopsTheStore() throws Exception {
        Files.createDirectories(work);
        // as from a terminal: SIGINT at its default disposition (a job started in the background of a
        // non-interactive shell, as a build may be, inherits it ignored, and bash cannot trap an inherited ignore)
        ProcessBuilder pb = command(Map.of(), "start");
        List<String> withDefaultInt = new ArrayList<>(List.of("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec @ARGV or die"));
        withDefaultInt.addAll(pb.command());
        Process fg = pb.command(withDefaultInt).redirectErrorStream(true)
                .redirectOutput(work.resolve("foreground.out").toFile()).start();
        Path out = work.resolve("foreground.out");
        long deadline = System.nanoTime() + START.toNanos();
        while (!Files.readString(out).contains("Ctrl-C stops it.\n") && fg.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(500);
        }
        String shown = Files.readString(out);
        assertThat(shown).as(shown).contains("store:       http://localhost:" + port + "/", "login:       admin / ");
        long pid = Long.parseLong(Files.readString(data.resolve("medjava.pid")).trim());
        assertThat(script(Duration.ofMinutes(1), Map.of(), "status").status()).isZero();

        new ProcessBuilder("kill", "-INT", Long.toString(fg.pid())).start().waitFor(); // what Ctrl-C sends
        assertThat(fg.waitFor(3, TimeUnit.MINUTES)).as(Files.readString(out)).isTrue();
        assertThat(fg.exitValue()).isZero();
        assertThat(Files.readString(out)).contains("stopping the image store", "the image store stopped");
        assertThat(running(pid)).isFalse();
        assertThat(data.resolve("medjava.pid")).doesNotExist();
    }

    /**
     * The first start's certificate (owner-only, in {@code <data>/tls}, its fingerprint shown), trusted here alone:
     * HTTPS answers on this machine's names, a login over it gets a Secure cookie, and plain HTTP refuses other
     * machines (tried on a non-loopback address of this one, when it has one).
     */
    private void httpsByDefault(String startOutput, String password) throws Exception {
        Path keystore = data.resolve("tls/store.p12");
        assertThat(mode(data.resolve("tls"))).isEqualTo("rwx------");
        assertThat(mode(keystore)).isEqualTo("rw-------");
        assertThat(mode(data.resolve("tls/store.p12.password"))).isEqualTo("rw-------");
        char[] secret = Files.readString(data.resolve("tls/store.p12.password")).strip().toCharArray();
        KeyStore store = KeyStore.getInstance(keystore.toFile(), secret);
        X509Certificate certificate = (X509Certificate) store.getCertificate("medjava");
        String fingerprint = HexFormat.ofDelimiter(":").withUpperCase()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded()));
        assertThat(startOutput).contains("certificate: SHA-256 " + fingerprint,
                "its SHA-256 fingerprint, for a browser's certificate warning: " + fingerprint)
                .containsPattern("https: +https://\\S+:" + httpsPort + "/");

        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        trusted.setCertificateEntry("store", certificate);
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, trust.getTrustManagers(), null);
        HttpClient https = HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(10)).build();
        String base = "https://localhost:" + httpsPort;
        assertThat(https.send(HttpRequest.newBuilder(URI.create(base + "/health/ready")).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(200);
        HttpResponse<Void> login = https.send(HttpRequest.newBuilder(URI.create(base + "/auth/login"))
                .header("Content-Type", "application/json").header("Origin", base)
                .POST(HttpRequest.BodyPublishers.ofString("{\"username\":\"admin\",\"password\":\"" + password
                        + "\"}")).build(), HttpResponse.BodyHandlers.discarding());
        assertThat(login.statusCode()).isEqualTo(200);
        assertThat(login.headers().allValues("Set-Cookie")).anySatisfy(c -> assertThat(c)
                .startsWith("medjava_session=").contains("; Secure", "; HttpOnly"));
        String cookie = login.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("medjava_session="))
                .findFirst().orElseThrow();
        HttpResponse<String> studies = https.send(HttpRequest.newBuilder(URI.create(base
                + "/dicomweb/studies?limit=1&includefield=00081190")).header("Accept", "application/dicom+json")
                .header("Cookie", cookie.substring(0, cookie.indexOf(';'))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(studies.body()).as("links the store writes name the HTTPS the client came by")
                .contains("\"" + base + "/dicomweb/studies/");

        InetAddress other = Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .flatMap(nic -> Collections.list(nic.getInetAddresses()).stream())
                .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress())
                .findFirst().orElse(null);
        if (other != null) {
            try (Socket socket = new Socket()) {
                assertThatThrownBy(() -> socket.connect(new InetSocketAddress(other, port), 3000))
                        .as("HTTP on %s, not the loopback", other).isInstanceOf(ConnectException.class);
            }
        }
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    /**
     * Whether the process still runs. A store started in the background belongs to init once the script returned,
     * which reaps it in its own time: a zombie has ended.
     */
    private static boolean running(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException e) {
            return false;
        }
    }

    private ProcessBuilder command(Map<String, String> env, String... args) {
        List<String> cmd = new ArrayList<>(List.of(ROOT.resolve("medjava").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(ROOT.toFile());
        Map<String, String> e = pb.environment();
        e.keySet().removeIf(k -> k.startsWith("MEDJAVA_"));
        e.remove("DISPLAY");
        e.put("MEDJAVA_NO_BUILD", "1"); // the build that runs this test made everything the script needs
        e.put("MEDJAVA_NO_VIEWER", "1");
        e.put("MEDJAVA_DATA", data.toString());
        e.put("MEDJAVA_PORT", Integer.toString(port));
        e.put("MEDJAVA_HTTPS_PORT", Integer.toString(httpsPort));
        e.put("MEDJAVA_JAVA_OPTS", "-Xmx512m");
        e.putAll(env);
        return pb;
    }

    private Run script(Duration timeout, Map<String, String> env, String... args) throws Exception {
        Files.createDirectories(work);
        Path out = Files.createTempFile(work, "run", ".out");
        Process p = command(env, args).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("./medjava " + String.join(" ", args) + " took over " + timeout + ":\n"
                    + Files.readString(out));
        }
        return new Run(p.exitValue(), Files.readString(out));
    }

    /**
     * The TCP ports the process listens on, each with its local address (ss from iproute2: local address, then
     * users:(("java",pid=N,...))).
     */
    private static Map<Integer, String> listening(long pid) throws Exception {
        Process ss = new ProcessBuilder("ss", "-ltnpH").redirectErrorStream(true).start();
        String table = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ss.waitFor()).as(table).isZero();
        Map<Integer, String> ports = new TreeMap<>();
        for (String line : table.split("\n")) {
            if (line.contains("pid=" + pid + ",")) {
                String local = line.trim().split("\\s+")[3];
                int colon = local.lastIndexOf(':');
                ports.put(Integer.parseInt(local.substring(colon + 1)), local.substring(0, colon));
            }
        }
        return ports;
    }

    private int get(String path, String user, String password) throws Exception {
        String basic = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", "Basic " + basic).header("Accept", "application/json")
                .timeout(Duration.ofSeconds(60)).build();
        return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static String lastLines(String text, int n) {
        String[] lines = text.split("\n");
        return String.join("\n", List.of(lines).subList(Math.max(0, lines.length - n), lines.length));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
