package org.medjava.filter.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.util.Locale;
import java.util.stream.Collectors;
import org.medjava.filter.Extent;
import org.medjava.filter.Filter;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.ParamSpec;

/**
 * The descriptor contract every plugin's filter follows, derived from its descriptor instead of spelled out per
 * plugin: what must never change (id, version, spec section, parameters with their rules and
 * defaults) pinned as one {@link #summary} line, and the rules every descriptor obeys checked from the descriptor
 * itself.
 */
public final class DescriptorContract {
    private DescriptorContract() {
    }

    /**
     * One line naming everything a host relies on, e.g. {@code blur "Blur" v1 spec 2.1 parallel; n: an odd integer
     * from 1 to 255 (default 3)}.
     */
    public static String summary(FilterDescriptor d) {
        return d.id() + " \"" + d.displayName() + "\" v" + d.version() + " spec " + d.specSection()
                + (d.parallelizable() ? " parallel" : " sequential") + d.params().stream()
                .map(p -> "; " + p.name() + ": " + p.rule() + " (default " + p.defaultValue() + ")")
                .collect(Collectors.joining());
    }

    /**
     * Checks {@code filter} against {@code expectedSummary} and the rules of every descriptor: a spec section, a
     * description and help, every parameter labelled and helped, defaults that parse, choices and extents read in
     * either case; texts read from a resource ({@code FilterDescriptor.Builder.text}) come from the plugin itself.
     */
    public static void check(Filter filter, String expectedSummary) {
        textsTravelWithTheClass(filter.getClass());
        FilterDescriptor d = filter.descriptor();
        assertThat(summary(d)).isEqualTo(expectedSummary);
        assertThat(d.specSection()).as("spec section").matches("\\d+\\.\\d+");
        assertThat(d.description()).as("description").isNotBlank();
        assertThat(d.help()).as("help").isNotBlank();
        assertThat(d.defaults().filterId()).isEqualTo(d.id());
        for (ParamSpec p : d.params()) {
            assertThat(p.hasHelp()).as("%s has a label and help", p.name()).isTrue();
            assertThat(d.defaults().asText().get(p.name())).as("default of %s in canonical form", p.name())
                    .isEqualTo(p.defaultValue());
            if (p.type() == ParamSpec.Type.CHOICE) {
                for (String choice : p.choices()) {
                    assertThat(p.parse(d.id(), choice.toUpperCase(Locale.ROOT))).isEqualTo(choice);
                }
            }
            if (p.type() == ParamSpec.Type.EXTENT) {
                assertThat(p.parse(d.id(), p.min() + "X" + p.max())).isEqualTo(new Extent(p.min(), p.max(), true));
            }
        }
    }

    /**
     * A filter's {@code <Filter>.properties}, if it has one, sits in the same JAR or classes directory as its class:
     * hosts load plugins in their own class loaders, which see only the plugin's JAR, so a file left in test
     * resources would pass here and fail every host. (The file's keys are checked when the descriptor is built.)
     */
    static void textsTravelWithTheClass(Class<?> type) {
        String name = type.getName().substring(type.getName().lastIndexOf('.') + 1);
        URL texts = type.getResource(name + ".properties");
        if (texts != null) {
            String classFile = type.getResource(name + ".class").toString();
            assertThat(texts.toString()).as("where %s.properties is", name)
                    .isEqualTo(classFile.substring(0, classFile.length() - ".class".length()) + ".properties");
        }
    }
}
