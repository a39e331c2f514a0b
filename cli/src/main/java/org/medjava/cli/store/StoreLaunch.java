package org.medjava.cli.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.medjava.cli.Context;
import org.medjava.cli.Processes;

/**
 * The command line of one store node: Payara Micro with the WAR, its data directory, ports and preboot commands.
 * Launcher settings: MEDJAVA_PORT (8080), MEDJAVA_HTTP_BIND (all interfaces), MEDJAVA_HTTPS_PORT (TLS with Payara's
 * self-signed certificate), MEDJAVA_DATA, MEDJAVA_JAVA_OPTS; every MicroProfile Config key as an environment
 * variable (docs/configuration.md).
 */
public record StoreLaunch(Path data, int port, int backendPort, String bind, String url, Path preboot,
        List<String> command) {
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
        String bind = ctx.env("MEDJAVA_HTTP_BIND", "");
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
        // system properties outrank the environment in MicroProfile Config: set defaults only where no variable is
        if (!ctx.isSet("MEDJAVA_PUBLIC_URL")) {
            command.add("-Dmedjava.public-url=" + url);
        }
        if (!bind.isEmpty()) {
            command.add("-Dmedjava.http.bind=" + bind);
            // the DICOM port (when enabled) follows the HTTP bind address unless it has its own
            if (!ctx.isSet("MEDJAVA_DICOM_BIND")) {
                command.add("-Dmedjava.dicom.bind=" + bind);
            }
        }
        // No --rootdir: Payara would remember the deployment and deploy the WAR twice on the next start.
        // --nohazelcast: Payara's data grid (port 6900 and up, all interfaces) is not used by the store, whose nodes
        // share PostgreSQL. --logproperties: Payara's console format without colour codes (its output goes to the
        // console log, a file). The store's port is its own front's (web.FrontServer); Payara's listener (--port)
        // serves the front alone, on the loopback (deploy/payara-preboot.txt), on a free port from the public one
        // + 1000.
        command.addAll(List.of("-jar", store.resolve("payara/payara-micro.jar").toString(),
                "--deploy", store.resolve("image-store.war").toString(), "--contextroot", "/",
                "--port", Integer.toString(backendPort), "--nohazelcast", "--disablephonehome",
                "--logproperties", ctx.root().resolve("deploy/payara-logging.properties").toString()));
        if (ctx.isSet("MEDJAVA_HTTPS_PORT")) {
            command.addAll(List.of("--sslport", ctx.env("MEDJAVA_HTTPS_PORT", "")));
        }
        command.addAll(List.of("--prebootcommandfile", preboot.toString()));
        command.addAll(payaraArgs);
        return new StoreLaunch(data, port, backendPort, bind, url, preboot, List.copyOf(command));
    }

    /** The host the store answers on locally. */
    public String host() {
        return StoreProbe.localHost(bind);
    }

    /**
     * deploy/payara-preboot.txt (no Server / X-Powered-By header naming the server product), and with a bind address
     * HTTPS's listener on it too (MEDJAVA_HTTPS_PORT is still Payara's own listener).
     */
    public void writePreboot(Context ctx) throws IOException {
        Files.createDirectories(preboot.getParent());
        String text = Files.readString(ctx.root().resolve("deploy/payara-preboot.txt"));
        if (!bind.isEmpty()) {
            text += "set configs.config.server-config.network-config.network-listeners.network-listener"
                    + ".https-listener.address=" + bind + "\n";
        }
        Files.writeString(preboot, text);
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
