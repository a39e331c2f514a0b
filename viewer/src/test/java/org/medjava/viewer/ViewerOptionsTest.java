package org.medjava.viewer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ViewerOptionsTest {

    @Test
    void parsesServerUserBenchmarkAndFiles() {
        ViewerOptions o = ViewerOptions.parse(new String[] {"--server", "http://h:8080", "--user=admin",
            "--benchmark=out/b.csv", "a.dcm", "b.png"}, "pw");
        assertThat(o.server()).isEqualTo("http://h:8080");
        assertThat(o.user()).isEqualTo("admin");
        assertThat(o.password()).containsExactly('p', 'w');
        assertThat(o.benchmarkCsv()).isEqualTo(Path.of("out/b.csv"));
        assertThat(o.files()).containsExactly(Path.of("a.dcm"), Path.of("b.png"));
    }

    @Test
    void benchmarkWithoutAFileUsesTheDefault() {
        ViewerOptions o = ViewerOptions.parse(new String[] {"--benchmark"}, null);
        assertThat(o.benchmark()).isTrue();
        assertThat(o.benchmarkCsv()).isEqualTo(ViewerOptions.DEFAULT_CSV);
        assertThat(o.password()).isNull();
        assertThat(ViewerOptions.parse(new String[0], "").benchmark()).isFalse();
    }

    @Test
    void unknownOptionsAndMissingValuesShowTheUsage() {
        assertThatThrownBy(() -> ViewerOptions.parse(new String[] {"--bogus"}, null))
                .hasMessageContaining("unknown option --bogus").hasMessageContaining("usage:");
        assertThatThrownBy(() -> ViewerOptions.parse(new String[] {"--server"}, null))
                .hasMessageContaining("needs a value");
    }
}
