package org.medjava.viewer.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The desktop's CT presets are the web viewer's: read from web/src/viewer/presets.js, compared in order. */
class CtPresetsTest {
    private static final Pattern ENTRY = Pattern.compile(
            "\\{\\s*name:\\s*'([^']+)',\\s*center:\\s*(-?[0-9.]+),\\s*width:\\s*([0-9.]+)\\s*}");

    /** "CT soft tissue C 40 W 400", ... */
    private static String describe(String name, double center, double width) {
        return name + " " + org.medjava.viewer.model.WindowLevel.format(new org.medjava.codec.dicom.Window(center,
                width));
    }

    static List<String> webCtPresets() throws IOException {
        Path file = Path.of(System.getProperty("medjava.root", "..")).resolve("web/src/viewer/presets.js");
        String source = Files.readString(file);
        int start = source.indexOf("const CT = [");
        assertThat(start).as("the CT list in " + file).isNotNegative();
        String list = source.substring(start, source.indexOf("];", start));
        List<String> presets = new ArrayList<>();
        Matcher m = ENTRY.matcher(list);
        while (m.find()) {
            presets.add(describe("CT " + m.group(1).toLowerCase(Locale.ROOT), Double.parseDouble(m.group(2)),
                    Double.parseDouble(m.group(3))));
        }
        return presets;
    }

    @Test
    void theDesktopOffersTheWebViewersCtWindowsInItsOrder() throws IOException {
        List<String> web = webCtPresets();
        assertThat(web).as("parsed from web/src/viewer/presets.js").hasSizeGreaterThanOrEqualTo(9)
                .contains("CT abdomen C 60 W 400", "CT liver C 60 W 160");
        assertThat(WindowLevel.CT_PRESETS).extracting(p -> describe(p.name(), p.window().center(),
                p.window().width())).containsExactlyElementsOf(web);
    }
}
