package org.medjava.store.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.testsupport.TestCallers;

/** {@link ReceiveLabels}: a study sent by a listed sender gets the sender's labels; others get none. */
class ReceiveLabelsTest {
    @TempDir
    Path dir;

    @Test
    void theSendersLabelsAreOnTheStudyOnceWhateverTheNumberOfInstances() {
        try (DicomIndex index = new DicomIndex(IndexDatabase.h2(dir.resolve("index")))) {
            ReceiveLabels rules = new ReceiveLabels(index, ReceiveLabels.parse("CARDIO_CT=cardiology|trials, "
                    + "uma=research"));
            Caller cardio = Caller.dicom("CARDIO_CT", "127.0.0.1");
            for (int i = 0; i < 3; i++) {
                rules.received(new Ingested("1.2", "1.2.3." + i, "1.2.826.5", "1.2.826.5.1", null, false), null,
                        cardio);
            }
            rules.received(new Ingested("1.2", "1.2.4.1", "1.2.826.6", "1.2.826.6.1", null, false), null,
                    Caller.dicom("OTHER", "127.0.0.1"));
            rules.received(new Ingested("1.2", "1.2.4.2", "1.2.826.7", "1.2.826.7.1", null, false), null,
                    TestCallers.USER);

            assertThat(index.labels("1.2.826.5")).containsExactly("cardiology", "trials");
            assertThat(index.labels("1.2.826.6")).isEmpty();
            assertThat(index.labels("1.2.826.7")).as("nobody bound: nothing").isEmpty();
        }
    }

    @Test
    void rulesAreReadFromTheirTextForm() {
        assertThat(ReceiveLabels.parse(" A=x|y , B = z, A=w")).isEqualTo(Map.of("A", Set.of("x", "y", "w"), "B",
                Set.of("z")));
        assertThat(ReceiveLabels.parse("")).isEmpty();
        assertThatThrownBy(() -> ReceiveLabels.parse("A")).hasMessageContaining("SENDER=label");
        assertThatThrownBy(() -> ReceiveLabels.parse("A=no spaces")).isInstanceOf(IllegalArgumentException.class);
    }
}
