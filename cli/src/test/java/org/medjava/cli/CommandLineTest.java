package org.medjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.cli.command.Context;
import org.medjava.cli.dev.TestCommand;
import org.medjava.cli.store.StoreLaunch;
import org.medjava.cli.store.StoreProcesses;
import picocli.CommandLine;

/** The command line's parsing, exit codes, error lines and paths; nothing here starts a store or a build. */
class CommandLineTest {
    @TempDir
    Path dir;
    final Map<String, String> env = new HashMap<>(Map.of("MEDJAVA_NO_BUILD", "1"));
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();

    Path root() {
        return Path.of(System.getProperty("medjava.root")).toAbsolutePath();
    }

    Context context() {
        return new Context(root(), dir, env, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    int run(String... args) {
        return Main.run(List.of(args), context());
    }

    String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    CommandLine.ParseResult parse(String... args) {
        return Main.commandLine(context(), false).parseArgs(args);
    }

    @Test
    void everyFormerSubcommandParses() {
        assertThat(parse("start", "--background").subcommand().commandSpec().name()).isEqualTo("start");
        assertThat(parse("store", "start").subcommand().subcommand().commandSpec().name()).isEqualTo("start");
        assertThat(parse("store", "stop").subcommand().subcommand().commandSpec().name()).isEqualTo("stop");
        assertThat(parse("status").subcommand().commandSpec().name()).isEqualTo("status");
        assertThat(parse("admin", "reset-password", "alice", "--stdin").subcommand().subcommand()
                .matchedOptionValue("--stdin", false)).isTrue();
        assertThat(parse("admin", "backup", "b", "--data", "d").subcommand().subcommand()
                .matchedOptionValue("--data", "")).isEqualTo("d");
        assertThat(parse("admin", "restore", "b", "--force").subcommand().subcommand()
                .matchedPositionalValue(0, "")).isEqualTo("b");
        assertThat(parse("golden", "regenerate").subcommand().subcommand().commandSpec().name())
                .isEqualTo("regenerate");
        assertThat(parse("fuzz", "3").subcommand().matchedPositionalValue(0, 0)).isEqualTo(3);
        assertThat(parse("bench", "--quick", "--out", "x").subcommand().unmatched())
                .containsExactly("--quick", "--out", "x");
        assertThat(parse("viewer", "--benchmark").subcommand().unmatched()).containsExactly("--benchmark");
        assertThat(parse("test", "-pl", "cli").subcommand().unmatched()).containsExactly("-pl", "cli");
        for (String command : List.of("cluster", "demo", "build", "filters", "completion")) {
            assertThat(parse(command).subcommand().commandSpec().name()).isEqualTo(command);
        }
        assertThat(parse("filter", "blur", "n=5", "+", "sharpen", "in.gif", "out.png", "--impl", "parallel")
                .subcommand().matchedPositional(0).<List<String>>getValue())
                .containsExactly("blur", "n=5", "+", "sharpen", "in.gif", "out.png");
    }

    @Test
    void helpIsExitZeroOnStdoutForEveryCommand() {
        for (List<String> command : List.<List<String>>of(List.of(), List.of("store", "start"), List.of("admin", "backup"),
                List.of("cluster"), List.of("test"), List.of("bench"), List.of("golden", "regenerate"))) {
            List<String> args = new ArrayList<>(command);
            args.add("--help");
            out.reset();
            assertThat(run(args.toArray(String[]::new))).as(args.toString()).isZero();
            assertThat(out()).as(args.toString()).startsWith("Usage: medjava");
        }
        assertThat(err()).isEmpty();
    }

    @Test
    void usageErrorsAreOneLineWithExitTwo() {
        assertThat(run("frobnicate")).isEqualTo(2);
        assertThat(run("admin")).isEqualTo(2);
        assertThat(run("fuzz", "many")).isEqualTo(2);
        assertThat(run("admin", "reset-password")).isEqualTo(2);
        assertThat(err().lines()).hasSize(4).allMatch(l -> l.startsWith("error: ") && l.contains("--help"));
        assertThat(err()).contains("see ./medjava admin reset-password --help");
    }

    @Test
    void failuresAreOneLineWithoutAStackTraceUnlessVerbose() {
        assertThat(run("filters", "--plugins", "nowhere")).isEqualTo(1);
        assertThat(err()).isEqualTo("error: plugin directory " + dir.resolve("nowhere") + " does not exist: give one "
                + "with --plugins DIR, or build the command line (./medjava build)" + System.lineSeparator());
        err.reset();
        assertThat(run("filters", "--plugins", "nowhere", "--verbose")).isEqualTo(1);
        assertThat(err()).startsWith("error: plugin directory").contains("\tat org.medjava.cli.");
    }

    @Test
    void relativePathsAreTheCallers() throws Exception {
        Files.copy(MainTest.sample("ct-small.gif"), dir.resolve("in.gif"));
        assertThat(run("filter", "blur", "in.gif", "out.png")).as(err()).isZero();
        assertThat(out()).contains("in.gif: 128x128").contains("wrote out.png");
        assertThat(dir.resolve("out.png")).isRegularFile();

        env.put("MEDJAVA_DATA", "here/store");
        assertThat(context().storeData()).isEqualTo(dir.resolve("here/store"));
        env.remove("MEDJAVA_DATA");
        assertThat(context().storeData()).isEqualTo(root().resolve("data/store"));
    }

    @Test
    void statusOfAStoreNotRunningIsExitThree() {
        env.put("MEDJAVA_DATA", "nothing");
        assertThat(run("status")).isEqualTo(3);
        assertThat(out()).isEqualTo("not running (data directory " + dir.resolve("nothing") + ")"
                + System.lineSeparator());
        assertThat(run("stop")).isEqualTo(1);
        assertThat(err()).isEqualTo("error: no image store is running on " + dir.resolve("nothing")
                + System.lineSeparator());
    }

    @Test
    void aStalePidFileIsRemoved() throws Exception {
        Files.writeString(dir.resolve("medjava.pid"), "999999999\n");
        assertThat(StoreProcesses.runningPid(dir, context().err())).isEmpty();
        assertThat(dir.resolve("medjava.pid")).doesNotExist();
        assertThat(err()).contains("removed a stale pid file: process 999999999");
    }

    @Test
    void theStoreCommandLineIsTheBashLaunchersOne() {
        env.putAll(Map.of("MEDJAVA_PORT", "8443", "MEDJAVA_HTTP_BIND", "10.0.0.5", "MEDJAVA_HTTPS_PORT", "8444",
                "MEDJAVA_JAVA_OPTS", "-Xmx2g -Dx=y"));
        StoreLaunch launch = StoreLaunch.of(context(), dir.resolve("data"), 9443, List.of("--addlibs", "a.jar"));
        String store = root().resolve("image-store/target").toString();
        assertThat(launch.url()).isEqualTo("http://10.0.0.5:8443");
        assertThat(launch.command()).containsSubsequence("-XX:G1HeapRegionSize=4m", "-Xmx2g", "-Dx=y",
                "-Dmedjava.data-dir=" + dir.resolve("data"), "-Dmedjava.http.port=8443",
                "-Dmedjava.http.backend-port=9443", "-Dmedjava.http.bind=10.0.0.5", "-Dmedjava.dicom.bind=10.0.0.5", "-Dmedjava.https.port=8444",
                "-Dmedjava.tls.keystore=" + dir.resolve("data/tls/store.p12"), "-jar",
                store + "/payara/payara-micro.jar", "--deploy", store + "/image-store.war", "--contextroot", "/",
                "--port", "9443", "--nohazelcast", "--disablephonehome", "--logproperties",
                root().resolve("deploy/payara-logging.properties").toString(),
                "--prebootcommandfile", dir.resolve("data/work/payara-preboot.txt").toString(), "--addlibs", "a.jar");
        assertThat(launch.command()).as("HTTPS is the front's: Payara's own listener stays off")
                .doesNotContain("--sslport").noneMatch(a -> a.startsWith("-Dmedjava.https.bind"));
    }

    @Test
    void httpsIsOnByDefaultWithTheStoresOwnCertificateAndHttpOnTheLoopback() {
        StoreLaunch launch = StoreLaunch.of(context(), dir, 9080, List.of());
        assertThat(launch.httpsPort()).isEqualTo(8443);
        assertThat(launch.keystore()).isEqualTo(dir.resolve("tls/store.p12"));
        assertThat(launch.url()).as("the local user's address").isEqualTo("http://localhost:8080");
        assertThat(launch.host()).isEqualTo("127.0.0.1");
        assertThat(launch.command()).contains("-Dmedjava.http.bind=127.0.0.1", "-Dmedjava.https.bind=*",
                "-Dmedjava.https.port=8443", "-Dmedjava.tls.keystore=" + dir.resolve("tls/store.p12"));
        assertThat(launch.command()).as("links follow the address each client came by, HTTPS from afar")
                .noneMatch(a -> a.startsWith("-Dmedjava.public-url"));
        assertThat(launch.command()).as("DICOM keeps its own default; no password on the command line")
                .noneMatch(a -> a.startsWith("-Dmedjava.dicom.bind") || a.contains("password"));
        assertThat(launch.environment()).isEmpty();
    }

    @Test
    void anAdministratorsCertificateAndBindAddressAreUsedAsGiven() {
        env.putAll(Map.of("MEDJAVA_TLS_KEYSTORE", "/etc/medjava/pacs.p12", "MEDJAVA_HTTP_BIND", "0.0.0.0"));
        StoreLaunch launch = StoreLaunch.of(context(), dir, 9080, List.of());
        assertThat(launch.keystore()).isNull();
        assertThat(launch.command()).contains("-Dmedjava.http.bind=0.0.0.0", "-Dmedjava.https.port=8443")
                .noneMatch(a -> a.startsWith("-Dmedjava.tls.keystore") || a.startsWith("-Dmedjava.https.bind"));
        env.remove("MEDJAVA_TLS_KEYSTORE");
        env.put("MEDJAVA_JAVA_OPTS", "-Dmedjava.tls.keystore=/etc/pacs.p12");
        assertThat(StoreLaunch.of(context(), dir, 9080, List.of()).keystore()).isNull();
    }

    @Test
    void httpsOffIsThePlainStoreOnEveryInterface() {
        for (Map.Entry<String, String> off : List.of(Map.entry("MEDJAVA_HTTPS_PORT", "off"),
                Map.entry("MEDJAVA_TLS", "OFF"))) {
            env.put(off.getKey(), off.getValue());
            StoreLaunch launch = StoreLaunch.of(context(), dir, 9080, List.of());
            assertThat(launch.httpsPort()).isZero();
            assertThat(launch.keystore()).isNull();
            assertThat(launch.command()).noneMatch(a -> a.startsWith("-Dmedjava.http.bind")
                    || a.startsWith("-Dmedjava.https") || a.startsWith("-Dmedjava.tls"));
            assertThat(launch.command()).contains("-Dmedjava.public-url=" + launch.url());
            assertThat(launch.environment()).as("the store must not read \"off\" as a port")
                    .containsEntry("MEDJAVA_HTTPS_PORT", null);
            env.remove(off.getKey());
        }
        env.put("MEDJAVA_HTTPS_PORT", "eighty");
        assertThat(run("start", "--dry-run")).isEqualTo(2);
        assertThat(err()).contains("MEDJAVA_HTTPS_PORT=eighty is neither a port number nor off");
    }

    @Test
    void dicomTlsOpensOn2762WithHttpsCertificateWhenHttpsAndDicomAreOn() {
        assertThat(StoreLaunch.of(context(), dir, 9080, List.of()).dicomTlsPort()).as("DICOM is off").isZero();
        env.put("MEDJAVA_DICOM_PORT", "11112");
        StoreLaunch launch = StoreLaunch.of(context(), dir, 9080, List.of());
        assertThat(launch.dicomTlsPort()).isEqualTo(2762);
        assertThat(launch.command()).contains("-Dmedjava.dicom.tls-port=2762",
                "-Dmedjava.tls.keystore=" + dir.resolve("tls/store.p12"));

        env.put("MEDJAVA_DICOM_TLS_PORT", "12762");
        assertThat(StoreLaunch.of(context(), dir, 9080, List.of()).command())
                .contains("-Dmedjava.dicom.tls-port=12762");
        env.put("MEDJAVA_DICOM_TLS_PORT", "off");
        launch = StoreLaunch.of(context(), dir, 9080, List.of());
        assertThat(launch.dicomTlsPort()).isZero();
        assertThat(launch.command()).noneMatch(a -> a.startsWith("-Dmedjava.dicom.tls"));
        assertThat(launch.environment()).as("the store must not read \"off\" as a port")
                .containsEntry("MEDJAVA_DICOM_TLS_PORT", null);

        env.remove("MEDJAVA_DICOM_TLS_PORT");
        env.put("MEDJAVA_HTTPS_PORT", "off");
        assertThat(StoreLaunch.of(context(), dir, 9080, List.of()).dicomTlsPort()).as("HTTPS is off").isZero();
        env.remove("MEDJAVA_HTTPS_PORT");
        env.remove("MEDJAVA_DICOM_PORT");
        env.put("MEDJAVA_JAVA_OPTS", "-Dmedjava.dicom.port=104");
        assertThat(StoreLaunch.of(context(), dir, 9080, List.of()).dicomTlsPort()).isEqualTo(2762);
        env.put("MEDJAVA_DICOM_TLS_PORT", "twenty");
        assertThat(run("start", "--dry-run")).isEqualTo(2);
        assertThat(err()).contains("MEDJAVA_DICOM_TLS_PORT=twenty is neither a port number nor off");
    }

    @Test
    void theStoreWritesItsPrebootCommands() throws Exception {
        StoreLaunch launch = StoreLaunch.of(context(), dir, 9080, List.of());
        launch.writePreboot(context());
        assertThat(launch.preboot()).hasSameTextualContentAs(root().resolve("deploy/payara-preboot.txt"));
    }

    @Test
    void testRunsWhatCiRan() {
        String root = root().toString();
        assertThat(TestCommand.commands(context(), List.of())).containsExactly(
                List.of(root + "/bootstrap/install-deps.sh", "--test"),
                List.of(root + "/mvnw", "-B", "-ntp", "verify"),
                List.of(root + "/mvnw", "-B", "-ntp", "-q", "-pl", "image-codec,dicom-net", "-am", "test",
                        "-Dtest=*FuzzTest", "-Dsurefire.failIfNoSpecifiedTests=false", "-DreuseForks=false",
                        "-Djazzer.hooks=true"));
        assertThat(TestCommand.commands(context(), List.of("-DskipTests"))).hasSize(2);
        env.put("MEDJAVA_NO_FUZZ", "1");
        assertThat(TestCommand.commands(context(), List.of("-pl", "cli")).get(1)).endsWith("verify", "-pl", "cli");
        assertThat(TestCommand.commands(context(), List.of())).hasSize(2);
        assertThat(run("test", "--dry-run")).isZero();
        assertThat(out()).contains("/mvnw -B -ntp verify");
    }

    @Test
    void completionIsPicocliGenerated() {
        assertThat(run("completion")).isZero();
        assertThat(out()).contains("complete -F").contains("medjava");
    }

    @Test
    void uptimeReadsLikeTheBashLaunchers() {
        assertThat(StoreProcesses.human(java.time.Duration.ofSeconds(75))).isEqualTo("1m 15s");
        assertThat(StoreProcesses.human(java.time.Duration.ofSeconds(3725))).isEqualTo("1h 02m 05s");
        assertThat(StoreProcesses.human(java.time.Duration.ofSeconds(90000))).isEqualTo("1d 1h 00m");
    }
}
