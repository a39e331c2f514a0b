package org.medjava.store.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md is what the sources say: every key with its meaning, and every variable and system property
 * the launcher and the programs read. {@code -Dmedjava.regenerate-docs=true} writes the file instead of comparing.
 */
class ConfigurationReferenceTest {

    /** The checkout: medjava.root when Maven ran from it, else the module's parent. */
    private static final Path ROOT = Stream.of(System.getProperty("medjava.root", ".."), "..").map(Path::of)
            .filter(p -> Files.isRegularFile(p.resolve("image-store/pom.xml"))).findFirst().orElseThrow()
            .toAbsolutePath().normalize();
    private static final ConfigurationReference REFERENCE = new ConfigurationReference(ROOT);
    private static final Pattern DOCUMENTED_KEY = Pattern.compile("(?m)^\\| `(medjava\\.[^`]+)` \\| `MEDJAVA_");

    @Test
    void theKeysAreFoundInTheSettingsRecords() {
        assertThat(REFERENCE.keys).extracting(ConfigurationReference.Key::name)
                .contains("medjava.data-dir", "medjava.upload.max-bytes", "medjava.dicom.port", "medjava.audit.site")
                .as("a key declared twice: declare it once (a settings record's Key) and read it from there")
                .doesNotHaveDuplicates();
        assertThat(REFERENCE.unresolved).as("reads whose name the scan cannot tell").isEmpty();
    }

    @Test
    void theWarsOwnConfigurationFileSetsNoKey() throws IOException {
        // docs/configuration.md says the defaults are the fields' own: a key set here would change them unseen
        Path file = ROOT.resolve("image-store/src/main/resources/META-INF/microprofile-config.properties");
        assertThat(Files.readAllLines(file)).noneMatch(line -> line.strip().startsWith("medjava."));
    }

    @Test
    void everyKeyHasAMeaning() {
        assertThat(REFERENCE.keys.stream().filter(k -> k.meaning() == null)
                .map(k -> k.name() + " (" + k.source() + ")").toList())
                .as("keys without a javadoc on their Key constant: write what the key means, its unit, and"
                        + " what 0 or unset means")
                .isEmpty();
    }

    @Test
    void aKeyReadByNameIsDeclaredAsAConfigProperty() {
        Set<String> declared = REFERENCE.keys.stream().map(ConfigurationReference.Key::name)
                .collect(Collectors.toSet());
        assertThat(REFERENCE.keyReads.entrySet().stream().filter(e -> !declared.contains(e.getKey()))
                .map(e -> e.getKey() + " read in " + e.getValue()).toList())
                .as("keys read by name but declared nowhere: declare them in a settings record with a javadoc")
                .isEmpty();
        assertThat(REFERENCE.keyReads).as("the scan sees ApiDocumentFilter's and ResetPassword's reads")
                .containsKeys("medjava.public-url", "medjava.db.url");
    }

    @Test
    void everyVariableAndSystemPropertyReadIsDescribedAndEveryDescriptionIsRead() {
        Set<String> environmentForms = REFERENCE.keys.stream().map(ConfigurationReference.Key::environment)
                .collect(Collectors.toSet());
        Set<String> variables = names(ConfigurationReference.VARIABLES);
        assertThat(REFERENCE.variableReads.keySet().stream()
                .filter(v -> !variables.contains(v) && !environmentForms.contains(v))
                .map(v -> v + " (read by " + REFERENCE.variableReads.get(v) + ")").toList())
                .as("environment variables read but not described in ConfigurationReference.VARIABLES").isEmpty();
        assertThat(variables).as("ConfigurationReference.VARIABLES read nowhere: remove them")
                .isSubsetOf(REFERENCE.variableReads.keySet());

        Set<String> properties = names(ConfigurationReference.SYSTEM_PROPERTIES);
        assertThat(REFERENCE.propertyReads.keySet().stream().filter(p -> !properties.contains(p))
                .map(p -> p + " (read by " + REFERENCE.propertyReads.get(p) + ")").toList())
                .as("system properties read but not described in ConfigurationReference.SYSTEM_PROPERTIES").isEmpty();
        assertThat(properties).as("ConfigurationReference.SYSTEM_PROPERTIES read nowhere: remove them")
                .isSubsetOf(REFERENCE.propertyReads.keySet());
    }

    @Test
    void docsConfigurationMdIsWhatTheSourcesSay() throws IOException {
        Path file = ROOT.resolve(ConfigurationReference.FILE);
        String rendered = REFERENCE.render();
        if (Boolean.getBoolean("medjava.regenerate-docs")) {
            Files.writeString(file, rendered);
            System.out.println("wrote " + file);
            return;
        }
        String committed = Files.exists(file) ? Files.readString(file) : "";
        if (committed.equals(rendered)) {
            return;
        }
        Set<String> keys = REFERENCE.keys.stream().map(ConfigurationReference.Key::name)
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> entries = documentedKeys(committed);
        fail(ConfigurationReference.FILE + " is not what the sources say"
                + "\n  keys without an entry: " + difference(keys, entries)
                + "\n  entries without a key: " + difference(entries, keys)
                + "\n  first difference: " + firstDifference(committed, rendered)
                + "\nRegenerate it (and commit it): " + ConfigurationReference.REGENERATE);
    }

    @Test
    void theEnvironmentFormIsUpperCaseWithUnderscores() {
        assertThat(ConfigurationReference.environmentForm("medjava.storage.s3.secret-key"))
                .isEqualTo("MEDJAVA_STORAGE_S3_SECRET_KEY");
        assertThat(ConfigurationReference.environmentForm("medjava.data-dir")).isEqualTo("MEDJAVA_DATA_DIR");
    }

    private static Set<String> names(List<ConfigurationReference.Described> described) {
        return described.stream().map(ConfigurationReference.Described::name).collect(Collectors.toSet());
    }

    private static Set<String> documentedKeys(String markdown) {
        Set<String> keys = new TreeSet<>();
        Matcher m = DOCUMENTED_KEY.matcher(markdown);
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }

    private static Set<String> difference(Set<String> a, Set<String> b) {
        Set<String> d = new TreeSet<>(a);
        d.removeAll(b);
        return d;
    }

    private static String firstDifference(String committed, String rendered) {
        List<String> was = committed.lines().toList();
        List<String> is = rendered.lines().toList();
        for (int i = 0; i < Math.max(was.size(), is.size()); i++) {
            String a = i < was.size() ? was.get(i) : "(end of file)";
            String b = i < is.size() ? is.get(i) : "(end of file)";
            if (!a.equals(b)) {
                return "line " + (i + 1) + "\n    committed: " + a + "\n    from code: " + b;
            }
        }
        return "line endings";
    }
}
