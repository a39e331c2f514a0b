package org.medjava.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A descriptor's prose from {@code <Owner>.properties} (API 1.5) equals the same prose written inline, and a file
 * that does not give exactly the expected keys stops the build of the descriptor with a message naming them. The
 * owners are the nested classes below; their files are in src/test/resources under their binary names.
 */
class FilterTextTest {
    static final class Complete {
    }

    static final class Missing {
    }

    static final class Unknown {
    }

    static final class Blank {
    }

    static final class Twice {
    }

    static final class Latin1 {
    }

    static final class Absent {
    }

    private static FilterDescriptor.Builder declared(Class<?> owner) {
        return FilterDescriptor.builder("shade").displayName("Shade").version("2").specSection("9.1").text(owner)
                .param(ParamSpec.oddInteger("n", 3, 1, 9)).param(ParamSpec.choice("mode", "xv", List.of("xv", "b")));
    }

    @Test
    void textsFromTheResourceEqualTheSameTextsInline() {
        FilterDescriptor fromFile = declared(Complete.class).build();
        FilterDescriptor inline = FilterDescriptor.builder("shade").displayName("Shade").version("2").specSection("9.1")
                .description("Shades the region: v' = v × n, in the spec's terms.")
                .help("Darkens the image; a line continued in the file.")
                .param(ParamSpec.oddInteger("n", 3, 1, 9, "mask size").withHelp("Size", "How wide, in pixels."))
                .param(ParamSpec.choice("mode", "xv", List.of("xv", "b"), "xv: as xv; b: not")
                        .withHelp("Mode", "Which way to shade."))
                .build();

        assertThat(fromFile.description()).isEqualTo(inline.description());
        assertThat(fromFile.help()).isEqualTo(inline.help());
        assertThat(fromFile.params()).hasSize(2);
        for (int i = 0; i < 2; i++) {
            ParamSpec a = fromFile.params().get(i);
            ParamSpec b = inline.params().get(i);
            assertThat(List.of(a.name(), a.description(), a.label(), a.help(), a.rule(), a.defaultValue()))
                    .isEqualTo(List.of(b.name(), b.description(), b.label(), b.help(), b.rule(), b.defaultValue()));
        }
        assertThat(fromFile.toString()).isEqualTo(inline.toString());
    }

    @Test
    void aMissingOrBlankKeyIsNamed() {
        assertThatThrownBy(() -> declared(Missing.class).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("filter shade: org/medjava/filter/FilterTextTest$Missing.properties lacks "
                        + "[help, param.mode.help]");
        assertThatThrownBy(() -> declared(Blank.class).build()).hasMessageContaining("lacks [param.n.label]");
    }

    @Test
    void anUnknownKeyIsNamedWithTheKeysExpected() {
        assertThatThrownBy(() -> declared(Unknown.class).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lacks [param.mode.label] has unknown keys [param.mdoe.label]")
                .hasMessageContaining("it needs exactly [description, help, param.n.label");
    }

    @Test
    void aKeyGivenTwiceIsRefused() {
        assertThatThrownBy(() -> declared(Twice.class).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("FilterTextTest$Twice.properties gives param.n.help twice");
    }

    /** A file saved as ISO-8859-1 ("×" as one byte) would otherwise show U+FFFD in every dialog. */
    @Test
    void aFileThatIsNotUtf8IsRefused() {
        assertThatThrownBy(() -> declared(Latin1.class).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot read FilterTextTest$Latin1.properties as UTF-8");
    }

    @Test
    void aMissingFileIsNamed() {
        assertThatThrownBy(() -> declared(Absent.class).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no FilterTextTest$Absent.properties beside the class");
    }

    /** One place for every text: the resource, or inline, not both. */
    @Test
    void textsGivenInlineAsWellAreRefused() {
        assertThatThrownBy(() -> declared(Complete.class).help("Inline too.").build())
                .hasMessageContaining("its description and help come from FilterTextTest$Complete.properties");
        assertThatThrownBy(() -> FilterDescriptor.builder("shade").text(Complete.class)
                .param(ParamSpec.oddInteger("n", 3, 1, 9, "mask size")).build())
                .hasMessageContaining("parameter n must be declared without them");
    }
}
