package org.medjava.filter.runtime;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One line of a filter configuration file, as in ACE's {@code svc.conf}:
 * <pre>
 * load &lt;plugin-id&gt; &lt;jar&gt; [param=value ...]
 * remove &lt;plugin-id&gt;
 * suspend &lt;filter-id&gt;
 * resume &lt;filter-id&gt;
 * </pre>
 * {@code #} starts a comment; a relative JAR path is resolved against the configuration file's directory.
 */
public sealed interface Directive {

    int line();

    record Load(int line, String pluginId, Path jar, Map<String, String> properties) implements Directive {
    }

    record Remove(int line, String pluginId) implements Directive {
    }

    record Suspend(int line, String filterId) implements Directive {
    }

    record Resume(int line, String filterId) implements Directive {
    }

    /** A line that could not be parsed, kept so the report can say which line and why. */
    record Invalid(int line, String text, String reason) implements Directive {
    }

    /** Parses a whole file's text; never throws, bad lines become {@link Invalid}. */
    static List<Directive> parse(String text, Path baseDir) {
        List<Directive> directives = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int hash = line.indexOf('#');
            String content = (hash >= 0 ? line.substring(0, hash) : line).trim();
            if (!content.isEmpty()) {
                directives.add(parseLine(i + 1, content, baseDir));
            }
        }
        return directives;
    }

    private static Directive parseLine(int number, String content, Path baseDir) {
        String[] words = content.split("\\s+");
        String verb = words[0];
        switch (verb) {
            case "load": {
                if (words.length < 3) {
                    return new Invalid(number, content, "expected: load <plugin-id> <jar> [param=value ...]");
                }
                Map<String, String> properties = new LinkedHashMap<>();
                for (int w = 3; w < words.length; w++) {
                    int eq = words[w].indexOf('=');
                    if (eq <= 0) {
                        return new Invalid(number, content, "\"" + words[w] + "\" is not param=value");
                    }
                    properties.put(words[w].substring(0, eq), words[w].substring(eq + 1));
                }
                return new Load(number, words[1], baseDir.resolve(words[2]).normalize(), properties);
            }
            case "remove":
            case "suspend":
            case "resume": {
                if (words.length != 2) {
                    return new Invalid(number, content, "expected: " + verb + " <" + (verb.equals("remove")
                            ? "plugin" : "filter") + "-id>");
                }
                return verb.equals("remove") ? new Remove(number, words[1])
                        : verb.equals("suspend") ? new Suspend(number, words[1]) : new Resume(number, words[1]);
            }
            default:
                return new Invalid(number, content, "unknown directive \"" + verb
                        + "\"; expected load, remove, suspend or resume");
        }
    }
}
