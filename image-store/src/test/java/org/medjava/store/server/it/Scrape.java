package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.medjava.store.testkit.store.StoreClient;

/** One scrape of a store's {@code /metrics} (Prometheus text format), its samples looked up by name and labels. */
public final class Scrape {

    /** One sample line: {@code name{label="value",...} 12.0}. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private static final Pattern LINE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final String text;
    private final List<Sample> samples = new ArrayList<>();

    private Scrape(String text) {
        this.text = text;
        for (String line : text.split("\n")) {
            Matcher m = LINE.matcher(line.trim());
            if (line.startsWith("#") || !m.matches()) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(2) != null) {
                Matcher l = LABEL.matcher(m.group(2));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            Sample sample = new Sample(m.group(1), labels, Double.parseDouble(m.group(3)));
            // Payara 6.2025.10 may write a base metric twice in one scrape: the first one counts
            if (samples.stream().noneMatch(s -> s.name().equals(sample.name()) && s.labels().equals(labels))) {
                samples.add(sample);
            }
        }
    }

    /** GET /metrics as Prometheus asks for it (text format); asserts a 200. */
    public static Scrape of(StoreClient client) throws Exception {
        var r = client.sendText(client.request("/metrics").header("Accept", "text/plain"));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return new Scrape(r.body());
    }

    /** A scrape already fetched (a cluster node's, say). */
    public static Scrape of(String text) {
        return new Scrape(text);
    }

    public String text() {
        return text;
    }

    public List<Sample> samples(String name) {
        return samples.stream().filter(s -> s.name().equals(name)).toList();
    }

    /**
     * The value of the sample {@code name} whose labels include {@code labels} ({@code "key", "value", ...}), or 0
     * when there is none (a counter not incremented yet).
     */
    public double value(String name, String... labels) {
        List<Sample> found = samples(name).stream().filter(s -> {
            for (int i = 0; i < labels.length; i += 2) {
                if (!labels[i + 1].equals(s.labels().get(labels[i]))) {
                    return false;
                }
            }
            return true;
        }).toList();
        assertThat(found).as("%s %s in\n%s", name, List.of(labels), text).hasSizeLessThanOrEqualTo(1);
        return found.isEmpty() ? 0 : found.get(0).value();
    }

    /** Whether a sample {@code name} exists at all. */
    public boolean has(String name) {
        return !samples(name).isEmpty();
    }
}
