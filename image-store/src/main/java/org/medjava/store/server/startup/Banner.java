package org.medjava.store.server.startup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import org.medjava.store.server.config.DataSettings;
import org.medjava.store.server.config.HttpSettings;
import org.medjava.store.server.config.StoreConfig;
import org.medjava.store.server.config.TlsSettings;

/**
 * What a person starting the store needs to see: where it is, how to log in, what it holds. Plain text, no colour
 * codes. Printed on standard output, or, with {@code medjava.banner.file}, written to that file (owner-only: it may
 * carry the first admin password) for {@code ./medjava start} to print once the store answers, after the server's
 * own start-up messages.
 */
final class Banner {

    /** What the banner tells. */
    record Facts(String url, String version, Path dataDir, String dicom, String newAdminPassword,
                 Set<String> accounts, boolean anonymousRead, int plugins, int seeded, Duration startup,
                 Tls tls) {
    }

    /** The front's HTTPS address for other machines, and its certificate's SHA-256 fingerprint ("" unknown). */
    record Tls(String url, String fingerprint) {
    }

    private Banner() {
    }

    static Facts facts(StoreConfig config, Set<String> accounts, String newAdminPassword, int plugins, int seeded,
                       Duration startup, String dicom) {
        HttpSettings http = config.http();
        return new Facts(config.links().publicUrl().orElseGet(() -> localUrl(http)),
                System.getProperty("medjava.version", ""), config.data().dataDir(), dicom, newAdminPassword, accounts,
                config.auth().anonymousRead(), plugins, seeded, startup,
                http.httpsPort().map(port -> tls(http, config.tls(), port)).orElse(null));
    }

    /** The front's plain HTTP as this machine reaches it (links follow each request when no public URL is set). */
    private static String localUrl(HttpSettings config) {
        String bind = config.bind().orElse("127.0.0.1");
        String host = bind.equals("127.0.0.1") || bind.equals("0.0.0.0") ? "localhost"
                : bind.contains(":") ? "[" + bind + "]" : bind;
        return config.port().map(port -> "http://" + host + ":" + port).orElse("http://localhost:<port>");
    }

    /** The bind address when HTTPS has one, else this machine's name: what another machine would type. */
    private static Tls tls(HttpSettings config, TlsSettings keyStore, int port) {
        String host = config.httpsBind().filter(h -> !h.equals("0.0.0.0") && !h.equals("::")).orElseGet(() -> {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                return "localhost";
            }
        });
        String fingerprint = "";
        try {
            Map.Entry<Path, char[]> keys = keyStore.keystoreOrJvms();
            fingerprint = fingerprint(KeyStore.getInstance(keys.getKey().toFile(), keys.getValue()));
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            // the front reports an unreadable key store itself; the banner only leaves the fingerprint out
        }
        return new Tls("https://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port, fingerprint);
    }

    /** The SHA-256 of the first key entry's certificate, as browsers show it (AB:CD:...). */
    static String fingerprint(KeyStore store) throws GeneralSecurityException {
        for (String alias : Collections.list(store.aliases())) {
            Certificate certificate = store.isKeyEntry(alias) ? store.getCertificate(alias) : null;
            if (certificate != null) {
                byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
                return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
            }
        }
        return "";
    }

    static String text(Facts f) {
        String url = f.url();
        StringBuilder b = new StringBuilder();
        String title = "==================== MedJava image store" + (f.version().isEmpty() ? "" : " " + f.version())
                + " ====================";
        b.append(title).append('\n');
        b.append("  store:       ").append(url).append("/\n");
        b.append("  viewer:      ").append(url).append("/viewer/   (the web application)\n");
        b.append("  OHIF:        ").append(url).append("/ohif/\n");
        b.append("  browse:      ").append(url).append("/images/\n");
        b.append("  filters:     ").append(url).append("/filters\n");
        b.append("  health:      ").append(url).append("/health/ready   metrics: /metrics   API: /openapi\n");
        b.append("  api:         ").append(url).append("/api/   (the API browser)\n");
        b.append("  dicomweb:    ").append(url).append("/dicomweb/studies   (QIDO-RS, WADO-RS, STOW-RS)\n");
        if (f.tls() != null) {
            b.append("  https:       ").append(f.tls().url()).append("/   (from other machines)\n");
            if (!f.tls().fingerprint().isEmpty()) {
                b.append("  certificate: SHA-256 ").append(f.tls().fingerprint()).append('\n');
            }
        }
        b.append("  dicom:       ").append(f.dicom()).append('\n');
        b.append("  data:        ").append(f.dataDir()).append('\n');
        b.append("  log:         ").append(f.dataDir().resolve("logs").resolve("medjava.log")).append('\n');
        if (f.newAdminPassword() != null) {
            b.append("  login:       admin / ").append(f.newAdminPassword())
                    .append("   (shown this once; stored hashed in users.properties)\n");
        } else {
            b.append("  login:       accounts ").append(f.accounts())
                    .append(" (the admin password was shown on first start; lost: ./medjava admin reset-password"
                            + " admin)\n");
        }
        b.append("  reads:       ").append(f.anonymousRead() ? "anonymous allowed" : "need a login").append('\n');
        b.append("  plugins:     ").append(f.plugins()).append(" loaded");
        if (f.seeded() > 0) {
            b.append("; ").append(f.seeded()).append(" sample images stored under /images/samples/");
        }
        b.append("\n  started in:  ").append(f.startup().toMillis()).append(" ms (application)\n");
        b.append("=".repeat(title.length())).append('\n');
        return b.toString();
    }

    /** Shows the banner: in {@code medjava.banner.file} when set, else on standard output. */
    static void show(DataSettings config, Facts facts) {
        String text = text(facts);
        if (config.bannerFile().isEmpty()) {
            // A banner for the operator's console, deliberately not a log record: it carries a one-time password.
            System.out.println("\n" + text);
            return;
        }
        Path file = config.bannerFile().get();
        try {
            write(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the start banner to " + file + " (medjava.banner.file)", e);
        }
        System.out.println("MedJava image store started; its banner is in " + file);
    }

    /** Writes the file readable by its owner only, complete or not at all (a reader never sees half of it). */
    static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(temp);
        Files.createFile(temp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (Writer out = Files.newBufferedWriter(temp, StandardCharsets.UTF_8)) {
            out.write(text);
        }
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
