package org.medjava.viewer.filters;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.ParamSpec;
import org.medjava.filter.runtime.FilterRegistry;

/**
 * Every plugin bundled with the viewer speaks a reader's language (filter API 1.3): a plain-language summary per
 * filter, and a label and help per parameter that differ from the spec's terms, which stay available.
 */
class BundledPluginHelpTest {

    @Test
    void everyBundledFilterAndParameterHasPlainLanguageHelp(@TempDir Path dir) throws Exception {
        try (FilterCatalog catalog = new FilterCatalog(new FilterRegistry(dir.resolve("work")),
                dir.resolve("downloads"))) {
            catalog.loadBundled(Path.of(System.getProperty("medjava.plugins", "target/viewer/plugins")));
            List<FilterEntry> entries = catalog.entries();

            assertThat(entries).extracting(FilterEntry::id).contains("blur", "sharpen", "despeckle", "edge-detect",
                    "emboss", "oil-paint", "pixelize", "spread");
            for (FilterEntry e : entries) {
                assertThat(e.descriptor().help()).as(e.id() + " summary").isNotBlank()
                        .isNotEqualTo(e.descriptor().description());
                for (ParamSpec p : e.descriptor().params()) {
                    String what = e.id() + " parameter " + p.name();
                    assertThat(p.hasHelp()).as(what + " has help").isTrue();
                    assertThat(p.label()).as(what + " label").isNotEqualTo(p.name());
                    assertThat(p.help()).as(what + " help is not the spec's rule").isNotEqualTo(p.description())
                            .hasSizeGreaterThan(40);
                    assertThat(p.description()).as(what + " spec rule kept").isNotBlank();
                }
            }
        }
    }
}
