package org.medjava.cli.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.medjava.cli.command.CliException;
import org.medjava.cli.command.Context;
import org.medjava.cli.command.Processes;

/**
 * The command line of one store node: Payara Micro with the WAR, its data directory, ports and preboot commands.
 * Launcher settings: MEDJAVA_PORT (8080), MEDJAVA_HTTP_BIND (the loopback while HTTPS is on, else all interfaces),
 * MEDJAVA_HTTPS_PORT (8443, on every interface; {@code off}: no HTTPS, as MEDJAVA_TLS=off), MEDJAVA_TLS_KEYSTORE (else
 * the store's own certificate, made on the first start: {@link StoreCertificate}), MEDJAVA_DICOM_TLS_PORT (2762
 * while HTTPS and DICOM are on; {@code off}: none), MEDJAVA_DATA, MEDJAVA_JAVA_OPTS; every MicroProfile Config key as
 * an environment variable (docs/configuration.md).
 *
 * @param httpsPort   the front's HTTPS port, 0 when off
 * @param dicomTlsPort the DICOM TLS port {@code start} opens with HTTPS's certificate, 0 when none
 * @param keystore    the certificate {@code start} makes if missing and gives the store, null when the administrator
 *                    gave one (or HTTPS is off)
 * @param environment the store process's variables that differ from the caller's: a null value removes one
 */
public record StoreLaunch(Path data, int port, int backendPort, String bind, String url, Path preboot, int httpsPort,
        int dicomTlsPort, Path keystore, Map<String, String> environment, List<String> command) {
    /** The environment variable that gives the store its key store's password (not its command line: ps shows it). */
    public static final String KEYSTORE_PASSWORD = "MEDJAVA_TLS_KEYSTORE_PASSWORD";

    /**
     * The store's JVM: 4 MiB G1 regions, so that a frame's arrays (a 512² 16-bit frame is 512 KiB) are not
     * "humongous" objects, each of which started a concurrent GC cycle (docs/performance.md); MEDJAVA_JAVA_OPTS
     * comes after it.
     */
    static final String STORE_JVM = "-XX:G1HeapRegionSize=4m";

    /** The launch for {@code ctx}'s settings; writes nothing (see {@link #writePreboot}). */
    public static StoreLaunch of(Context ctx, Path data, int backendPort, List<String> payaraArgs) {
        Path store = ctx.store();
        int port = ctx.port();
        int httpsPort = httpsPort(ctx);
        // with HTTPS on, plain HTTP (passwords in Basic headers and forms) stays on this machine unless asked
        String bind = ctx.env("MEDJAVA_HTTP_BIND", httpsPort > 0 ? "127.0.0.1" : "");
        String host = StoreProbe.localHost(bind);
        String urlHost = host.equals("127.0.0.1") ? "localhost" : host.contains(":") ? "[" + host + "]" : host;
        String url = ctx.env("MEDJAVA_PUBLIC_URL", "http://" + urlHost + ":" + port).replaceAll("/+$", "");
        Path preboot = data.resolve("work/payara-preboot.txt");

        List<String> command = new ArrayList<>(List.of(Processes.java(), STORE_JVM));
        String javaOpts = ctx.env("MEDJAVA_JAVA_OPTS", "").trim();
        if (!javaOpts.isEmpty()) {
            command.addAll(Arrays.asList(javaOpts.split("\\s+")));
        }
        command.addAll(List.of("-Dmedjava.data-dir=" + data, "-Dmedjava.banner.file=" + data.resolve("banner.txt"),
                "-Dmedjava.version=" + version(store), "-Dmedjava.seed.images=" + ctx.samples(),
                "-Dmedjava.seed.plugins=" + store.resolve("plugins"), "-Dmedjava.http.port=" + port,
                "-Dmedjava.http.backend-port=" + backendPort));
        // system properties outrank the environment in MicroProfile Config: set defaults only where no variable is.
        // With HTTPS on, links follow the address each client came by (the loopback's HTTP, or HTTPS from afar)
        if (!ctx.isSet("MEDJAVA_PUBLIC_URL") && httpsPort == 0) {
            command.add("-Dmedjava.public-url=" + url);
        }
        if (!bind.isEmpty()) {
            command.add("-Dmedjava.http.bind=" + bind);
            // the DICOM port (when enabled) follows the HTTP bind address unless it has its own; the loopback chosen
            // for HTTP above is not the administrator's choice of address, and HTTPS listens everywhere then
            if (ctx.isSet("MEDJAVA_HTTP_BIND") && !ctx.isSet("MEDJAVA_DICOM_BIND")) {
                command.add("-Dmedjava.dicom.bind=" + bind);
            }
            if (!ctx.isSet("MEDJAVA_HTTP_BIND") && !ctx.isSet("MEDJAVA_HTTPS_BIND")) {
                command.add("-Dmedjava.https.bind=*");
            }
        }
        Map<String, String> environment = new HashMap<>();
        Path keystore = null;
        if (httpsPort > 0) {
            command.add("-Dmedjava.https.port=" + httpsPort);
            if (!ctx.isSet("MEDJAVA_TLS_KEYSTORE") && !javaOpts.contains("-Dmedjava.tls.keystore=")) {
                keystore = data.resolve("tls/store.p12");
                command.add("-Dmedjava.tls.keystore=" + keystore);
            }
        } else {
            // "off" is no port number: the store would fail to read it as medjava.https.port
            environment.put("MEDJAVA_HTTPS_PORT", null);
        }
        int dicomTlsPort = dicomTlsPort(ctx, httpsPort > 0 && dicomOn(ctx, javaOpts));
        if (dicomTlsPort > 0) { // the same key store as HTTPS: the store's one certificate
            command.add("-Dmedjava.dicom.tls-port=" + dicomTlsPort);
        } else if (ctx.env("MEDJAVA_DICOM_TLS_PORT", "").trim().equalsIgnoreCase("off")) {
            environment.put("MEDJAVA_DICOM_TLS_PORT", null);
        }
        // No --rootdir: Payara would remember the deployment and deploy the WAR twice on the next start.
        // --nohazelcast: Payara's data grid (port 6900 and up, all interfaces) is not used by the store, whose nodes
        // share PostgreSQL. --logproperties: Payara's console format without colour codes (its output goes to the
        // console log, a file). The store's port is its own front's (front.FrontServer); Payara's listener (--port)
        // serves the front alone, on the loopback (deploy/payara-preboot.txt), on a free port from the public one
        // + 1000. HTTPS is the front's too (medjava.https.port), not Payara's (--sslport): Payara's stays off.
        command.addAll(List.of("-jar", store.resolve("payara/payara-micro.jar").toString(),
                "--deploy", store.resolve("image-store.war").toString(), "--contextroot", "/",
                "--port", Integer.toString(backendPort), "--nohazelcast", "--disablephonehome",
                "--logproperties", ctx.root().resolve("deploy/payara-logging.properties").toString()));
        command.addAll(List.of("--prebootcommandfile", preboot.toString()));
        command.addAll(payaraArgs);
        return new StoreLaunch(data, port, backendPort, bind, url, preboot, httpsPort, dicomTlsPort, keystore,
                Collections.unmodifiableMap(environment), List.copyOf(command));
    }

    /** MEDJAVA_HTTPS_PORT (8443), 0 when it or MEDJAVA_TLS is {@code off}. */
    static int httpsPort(Context ctx) {
        String value = ctx.env("MEDJAVA_HTTPS_PORT", "8443").trim();
        if (value.equalsIgnoreCase("off") || ctx.env("MEDJAVA_TLS", "").trim().equalsIgnoreCase("off")) {
            return 0;
        }
        try {
            int port = Integer.parseInt(value);
            if (port > 0 && port < 65536) {
                return port;
            }
        } catch (NumberFormatException e) {
            // told below
        }
        throw new CliException("MEDJAVA_HTTPS_PORT=" + value + " is neither a port number nor off", 2);
    }

    /** Whether the store's DICOM service is on: MEDJAVA_DICOM_PORT, or medjava.dicom.port in MEDJAVA_JAVA_OPTS. */
    static boolean dicomOn(Context ctx, String javaOpts) {
        String port = ctx.env("MEDJAVA_DICOM_PORT", "").trim();
        return !port.isEmpty() && !port.equals("0") || javaOpts.contains("-Dmedjava.dicom.port=");
    }

    /**
     * MEDJAVA_DICOM_TLS_PORT (2762, DICOM's well-known TLS port) when {@code on} (HTTPS and DICOM are), 0 when it is
     * {@code off} or not on; a port given while HTTPS is off reaches the store as set (it needs a key store then).
     */
    static int dicomTlsPort(Context ctx, boolean on) {
        String value = ctx.env("MEDJAVA_DICOM_TLS_PORT", "2762").trim();
        if (!on || value.equalsIgnoreCase("off")) {
            return 0;
        }
        try {
            int port = Integer.parseInt(value);
            if (port > 0 && port < 65536) {
                return port;
            }
        } catch (NumberFormatException e) {
            // told below
        }
        throw new CliException("MEDJAVA_DICOM_TLS_PORT=" + value + " is neither a port number nor off", 2);
    }

    /** The host the store answers on locally. */
    public String host() {
        return StoreProbe.localHost(bind);
    }

    /** deploy/payara-preboot.txt: Payara's listener on the loopback, no Server / X-Powered-By header. */
    public void writePreboot(Context ctx) throws IOException {
        Files.createDirectories(preboot.getParent());
        Files.copy(ctx.root().resolve("deploy/payara-preboot.txt"), preboot, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The built store's version, from Maven's pom.properties. */
    static String version(Path store) {
        try {
            return Files.readAllLines(store.resolve("maven-archiver/pom.properties")).stream()
                    .filter(l -> l.startsWith("version=")).map(l -> l.substring(8)).findFirst().orElse("");
        } catch (IOException e) {
            return "";
        }
    }
}
