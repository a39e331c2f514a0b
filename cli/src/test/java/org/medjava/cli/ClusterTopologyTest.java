package org.medjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The cluster is described once. {@code docker/compose.yaml} (with {@code docker/Dockerfile}, what every container
 * gets) is the deployment definition; {@code ./medjava cluster} ({@code deploy/local-cluster.sh}) and the tests'
 * {@code ClusterHarness} (image-store-testkit, with {@code PayaraStore}) must start the same parts and give a node
 * the same settings. What nginx does with a request is one file, {@code deploy/cluster/nginx-proxy.conf}, that all
 * three include. A difference that is meant is listed here with its reason (and must still exist); any other fails.
 */
class ClusterTopologyTest {

    /** Node settings only compose gives, by reason. */
    private static final Map<String, String> COMPOSE_ONLY = Map.of(
            "MEDJAVA_DICOM_PORT", "DICOM reaches the nodes through nginx's stream block in compose only",
            "MEDJAVA_DICOM_AET", "the Orthanc peer is compose's only",
            "MEDJAVA_DICOM_ALLOWED_AETS", "the Orthanc peer is compose's only",
            "MEDJAVA_DICOM_MOVE_DESTINATIONS", "the Orthanc peer is compose's only",
            "MEDJAVA_DICOM_REMOTES", "the Orthanc peer is compose's only");
    /** Node settings only ./medjava cluster gives. */
    private static final Map<String, String> LOCAL_ONLY = Map.of(
            "MEDJAVA_HTTP_BIND", "processes on a shared host listen on the loopback; a container has its own network");
    /** Node settings only ClusterHarness (through PayaraStore) gives. */
    private static final Map<String, String> HARNESS_ONLY = Map.of(
            "MEDJAVA_UPLOAD_MAX_BYTES", "PayaraStore's small upload limit for the tests' hostile bodies",
            "MEDJAVA_HTTPS_PORT", "PayaraStore's TLS option, which ClusterHarness does not use");
    /** Settings whose value is the same literal everywhere. */
    private static final List<String> SAME_VALUE = List.of("MEDJAVA_STORAGE", "MEDJAVA_CLUSTER_ENABLED",
            "MEDJAVA_HTTP_TRUST_FORWARDED");
    /** Compose's services by role (from their images); the others start the same roles but the PACS peer. */
    private static final String PEER = "Orthanc";
    private static final Map<String, String> LOCAL_MARKERS = Map.of("PostgreSQL", "/pg_ctl\"", "S3Proxy",
            "s3proxy.jar", "store node", "payara-micro.jar", "nginx", "/usr/sbin/nginx");
    private static final Map<String, String> HARNESS_MARKERS = Map.of("PostgreSQL", "LocalPostgres.start(",
            "S3Proxy", "S3ProxyServer.start(", "store node", "PayaraStore.named(", "nginx", "Nginx.start(");

    private static final Pattern ENV_ASSIGNMENT = Pattern.compile("\\b(MEDJAVA_[A-Z0-9_]+)=");
    private static final Pattern SYSTEM_PROPERTY = Pattern.compile("-D(medjava\\.[a-z0-9.-]+)=([A-Za-z0-9]*)");
    private static final Pattern JAVA_PROPERTY = Pattern.compile(
            "(?:property|properties\\.put)\\(\"(medjava\\.[a-z0-9.-]+)\"(?:,\\s*\"([^\"]*)\")?");
    private static final Pattern FAIL_PARAMETERS = Pattern.compile("max_fails=(\\d+) fail_timeout=(\\d+)s");

    private final Path root = DocsLinksTest.repositoryRoot();

    @Test
    void theSameServicesRunInAllThree() throws IOException {
        Map<String, List<String>> compose = composeRoles();
        assertThat(compose.keySet()).as("compose's services by role")
                .containsExactlyInAnyOrder("PostgreSQL", "S3Proxy", "store node", "nginx", PEER);
        String script = read("deploy/local-cluster.sh");
        String harness = read(harnessSource("cluster/ClusterHarness"));
        for (String role : compose.keySet()) {
            if (role.equals(PEER)) {
                assertThat(script).as("./medjava cluster runs no " + PEER + " (compose's PACS peer)")
                        .doesNotContainIgnoringCase("orthanc");
                continue;
            }
            assertThat(script).as("./medjava cluster starts the " + role).contains(LOCAL_MARKERS.get(role));
            assertThat(harness).as("ClusterHarness starts the " + role).contains(HARNESS_MARKERS.get(role));
        }
        Matcher nodes = Pattern.compile("MEDJAVA_NODES:-(\\d+)").matcher(script);
        assertThat(nodes.find()).as("./medjava cluster's default node count").isTrue();
        assertThat(Integer.parseInt(nodes.group(1))).as("./medjava cluster's nodes as compose's")
                .isEqualTo(compose.get("store node").size());
    }

    @Test
    void everyNodeGetsTheSameSettings() throws IOException {
        Map<String, String> compose = composeNodeSettings();
        Map<String, String> local = localNodeSettings();
        Map<String, String> harness = harnessNodeSettings();
        assertThat(compose).as("compose's node settings").containsKeys(COMPOSE_ONLY.keySet().toArray(String[]::new));
        assertThat(local).as("./medjava cluster's node settings")
                .containsKeys(LOCAL_ONLY.keySet().toArray(String[]::new));
        assertThat(harness).as("ClusterHarness's node settings")
                .containsKeys(HARNESS_ONLY.keySet().toArray(String[]::new));

        assertThat(difference(compose, local, COMPOSE_ONLY)).as("set by compose, not by ./medjava cluster "
                + "(deploy/local-cluster.sh, start_node)").isEmpty();
        assertThat(difference(local, compose, LOCAL_ONLY)).as("set by ./medjava cluster, not by compose").isEmpty();
        assertThat(difference(compose, harness, COMPOSE_ONLY)).as("set by compose, not by ClusterHarness "
                + "(nodeBuilder) or PayaraStore").isEmpty();
        assertThat(difference(harness, compose, HARNESS_ONLY)).as("set by ClusterHarness, not by compose").isEmpty();

        for (String key : SAME_VALUE) {
            assertThat(List.of(local.get(key), harness.get(key))).as(key + " in ./medjava cluster and ClusterHarness "
                    + "as in compose").containsOnly(compose.get(key));
        }
    }

    @Test
    void nginxTreatsARequestTheSameWayInAllThree() throws IOException {
        String dockerConf = read("docker/nginx.conf");
        String http = dockerConf.substring(0, dockerConf.indexOf("\nstream {"));
        String script = read("deploy/local-cluster.sh");
        String harness = read(harnessSource("peers/Nginx"));
        assertThat(http).contains("include /etc/nginx/medjava-proxy.conf;");
        assertThat(composeService("lb").get("volumes")).as("compose's lb mounts the shared rules")
                .asList().contains("../deploy/cluster/nginx-proxy.conf:/etc/nginx/medjava-proxy.conf:ro");
        assertThat(script).contains("include \"$ROOT/deploy/cluster/nginx-proxy.conf\";");
        assertThat(harness).contains("include \"%5$s\";").contains("resolve(\"deploy/cluster/nginx-proxy.conf\")");
        // the rules are the shared file's only: none of the three adds or overrides one
        for (Map.Entry<String, String> conf : Map.of("docker/nginx.conf", http, "deploy/local-cluster.sh", script,
                "Nginx.java", harness).entrySet()) {
            assertThat(conf.getValue().lines().map(String::strip)
                    .filter(l -> l.startsWith("proxy_") && !l.startsWith("proxy_temp_path")))
                    .as("proxy_ directives in " + conf.getKey()).isEmpty();
        }

        // a failed node is left out alike: max_fails and fail_timeout on every upstream server
        Set<String> docker = FAIL_PARAMETERS.matcher(dockerConf).results().map(m -> m.group())
                .collect(Collectors.toSet());
        assertThat(docker).as("docker/nginx.conf's upstream servers").hasSize(1);
        String rule = docker.iterator().next();
        assertThat(FAIL_PARAMETERS.matcher(script).results().map(m -> m.group()).toList())
                .as("./medjava cluster's upstream servers").containsOnly(rule);
        Matcher seconds = Pattern.compile("FAIL_TIMEOUT_SECONDS = (\\d+);").matcher(harness);
        Matcher fails = Pattern.compile("max_fails=(\\d+) fail_timeout=\"\\)\\s*\\.append\\(FAIL_TIMEOUT_SECONDS\\)")
                .matcher(harness);
        assertThat(seconds.find() && fails.find()).as("Nginx.java's upstream servers").isTrue();
        assertThat("max_fails=" + fails.group(1) + " fail_timeout=" + seconds.group(1) + "s").as("the tests' Nginx")
                .isEqualTo(rule);

        // compose's load balancer spreads HTTP and DICOM over exactly compose's store nodes
        Set<String> nodes = new TreeSet<>(composeRoles().get("store node"));
        assertThat(hosts(http, ":8080")).as("docker/nginx.conf's HTTP upstreams").isEqualTo(nodes);
        assertThat(hosts(dockerConf.substring(http.length()), ":11112")).as("docker/nginx.conf's DICOM upstreams")
                .isEqualTo(nodes);
    }

    // --- compose ---------------------------------------------------------------------------------------------------

    @SuppressWarnings("unchecked")
    private Map<String, Object> composeService(String name) throws IOException {
        Map<String, Object> compose = new Yaml().load(read("docker/compose.yaml"));
        Map<String, Object> services = (Map<String, Object>) compose.get("services");
        assertThat(services).containsKey(name);
        return (Map<String, Object>) services.get(name);
    }

    /** Compose's service names by role, the role told by the image (its default). */
    @SuppressWarnings("unchecked")
    private Map<String, List<String>> composeRoles() throws IOException {
        Map<String, Object> compose = new Yaml().load(read("docker/compose.yaml"));
        Map<String, List<String>> roles = new TreeMap<>();
        ((Map<String, Map<String, Object>>) compose.get("services")).forEach((name, service) -> {
            // an image the environment may swap (${MEDJAVA_NGINX_IMAGE:-nginx:1.27}) by its default
            String image = String.valueOf(service.get("image")).replaceAll("^\\$\\{[A-Z0-9_]+:-(.*)}$", "$1");
            String role = image.startsWith("postgres:") ? "PostgreSQL"
                    : image.contains("s3proxy") ? "S3Proxy"
                    : image.startsWith("medjava/image-store") ? "store node"
                    : image.startsWith("nginx:") ? "nginx"
                    : image.contains("orthanc") ? PEER
                    : "unknown (service " + name + ", image " + image + ")";
            roles.computeIfAbsent(role, r -> new ArrayList<>()).add(name);
        });
        return roles;
    }

    /**
     * What the store nodes of compose get, by environment variable: their environment in compose (merged over all
     * of them: only one seeds) and the image's own (docker/Dockerfile: its ENV and the entry point's -D options).
     */
    @SuppressWarnings("unchecked")
    private Map<String, String> composeNodeSettings() throws IOException {
        Map<String, String> settings = new TreeMap<>();
        for (String node : composeRoles().get("store node")) {
            ((Map<String, Object>) composeService(node).get("environment"))
                    .forEach((k, v) -> settings.putIfAbsent(k, String.valueOf(v)));
        }
        settings.remove("JAVA_OPTS");
        String dockerfile = withoutComments(read("docker/Dockerfile"));
        Matcher env = Pattern.compile("\\b(MEDJAVA_[A-Z0-9_]+)=(\\S*)").matcher(dockerfile);
        while (env.find()) {
            settings.putIfAbsent(env.group(1), env.group(2));
        }
        properties(SYSTEM_PROPERTY, dockerfile, settings);
        return settings;
    }

    // --- ./medjava cluster and ClusterHarness ----------------------------------------------------------------------

    /** deploy/local-cluster.sh's start_node: its environment assignments and -D options. */
    private Map<String, String> localNodeSettings() throws IOException {
        String script = read("deploy/local-cluster.sh");
        int start = script.indexOf("  start_node() {");
        assertThat(start).as("start_node in deploy/local-cluster.sh").isNotNegative();
        String body = withoutComments(script.substring(start, script.indexOf("\n  }\n", start)));
        Map<String, String> settings = new TreeMap<>();
        ENV_ASSIGNMENT.matcher(body).results().forEach(m -> settings.put(m.group(1), ""));
        properties(SYSTEM_PROPERTY, body, settings);
        return settings;
    }

    /** ClusterHarness's nodeBuilder and what PayaraStore gives every store it launches. */
    private Map<String, String> harnessNodeSettings() throws IOException {
        String cluster = read(harnessSource("cluster/ClusterHarness"));
        Matcher constant = Pattern.compile("CLUSTER_PROPERTY = (\"[^\"]+\")").matcher(cluster);
        assertThat(constant.find()).isTrue();
        int start = cluster.indexOf("private PayaraStore.Builder nodeBuilder(");
        String nodeBuilder = cluster.substring(start, cluster.indexOf("\n    }\n", start))
                .replace("CLUSTER_PROPERTY", constant.group(1));
        Map<String, String> settings = new TreeMap<>();
        properties(JAVA_PROPERTY, nodeBuilder, settings);
        String store = read(harnessSource("store/PayaraStore"));
        if (nodeBuilder.contains(".seedPlugins()")) {
            int seed = store.indexOf("public Builder seedPlugins()");
            properties(JAVA_PROPERTY, store.substring(seed, store.indexOf('}', seed)), settings);
        }
        int builder = store.indexOf("Builder(String name) {");
        properties(JAVA_PROPERTY, store.substring(builder, store.indexOf('}', builder)), settings);
        properties(Pattern.compile("\"-D(medjava\\.[a-z0-9.-]+)=()"), store, settings);
        return settings;
    }

    // --- helpers ---------------------------------------------------------------------------------------------------

    /** Adds every match's property (group 1) as its environment variable, with its literal value (group 2) if any. */
    private static void properties(Pattern pattern, String text, Map<String, String> settings) {
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            String value = m.groupCount() >= 2 && m.group(2) != null ? m.group(2) : "";
            settings.merge(environmentName(m.group(1)), value, (a, b) -> a.isEmpty() ? b : a);
        }
    }

    /** MicroProfile Config's environment form: medjava.storage.s3.access-key is MEDJAVA_STORAGE_S3_ACCESS_KEY. */
    static String environmentName(String property) {
        return property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    /** The keys of {@code a} that {@code b} lacks, but for the expected ones, with their sources' values. */
    private static Map<String, String> difference(Map<String, String> a, Map<String, String> b,
                                                  Map<String, String> expected) {
        Map<String, String> missing = new LinkedHashMap<>(a);
        missing.keySet().removeAll(b.keySet());
        missing.keySet().removeAll(expected.keySet());
        return missing;
    }

    private static Set<String> hosts(String conf, String port) {
        return Pattern.compile("server (\\w+)" + port + " ").matcher(conf).results().map(m -> m.group(1))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static String withoutComments(String text) {
        return text.lines().filter(l -> !l.strip().startsWith("#")).collect(Collectors.joining("\n"));
    }

    /** A harness's source by its path under image-store-testkit's package root, e.g. {@code peers/Nginx}. */
    private String harnessSource(String name) {
        return "image-store-testkit/src/main/java/org/medjava/store/testkit/" + name + ".java";
    }

    private String read(String path) throws IOException {
        return Files.readString(root.resolve(path), StandardCharsets.UTF_8);
    }
}
