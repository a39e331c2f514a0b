package org.medjava.store.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link IntentJournal}: what a restart finds open, torn records, rotation, intents kept for the next start. */
class IntentJournalTest {

    @TempDir
    Path dir;

    @Test
    void aRestartFindsTheIntentsThatWereNotDoneAndOnlyThose() throws Exception {
        IntentJournal first = IntentJournal.open(dir);
        IntentJournal.Intent put = first.begin(IntentJournal.Op.PUT, "a/b c.dcm", "1.2.3");
        IntentJournal.Intent delete = first.begin(IntentJournal.Op.DELETE, "x/ü.gif", null);
        IntentJournal.Intent finished = first.begin(IntentJournal.Op.PUT, "done.dcm", "1.2.4");
        first.done(finished);
        assertThat(first.openCount()).isEqualTo(2);
        // a crash: the journal is never closed nor told more

        IntentJournal second = IntentJournal.open(dir);
        assertThat(second.leftOver()).containsExactly(put, delete);
        IntentJournal.Intent next = second.begin(IntentJournal.Op.PUT, "n.dcm", null);
        assertThat(next.id()).isGreaterThan(finished.id()); // ids are not reused: a "done" never hits a newer intent
        second.done(next);
        first.close();

        // reconciliation did not happen (a crash during the start): the left-overs are still there next time
        IntentJournal third = IntentJournal.open(dir);
        assertThat(third.leftOver()).containsExactly(put, delete);
        third.recovered(List.of(delete));
        IntentJournal fourth = IntentJournal.open(dir);
        assertThat(fourth.leftOver()).containsExactly(delete);
        fourth.recovered(List.of());
        assertThat(IntentJournal.open(dir).leftOver()).isEmpty();
        second.close();
        third.close();
        fourth.close();
    }

    @Test
    void aTornLastRecordNeverBegan() throws Exception {
        IntentJournal journal = IntentJournal.open(dir);
        IntentJournal.Intent whole = journal.begin(IntentJournal.Op.PUT, "whole.dcm", null);
        journal.close();
        Files.writeString(dir.resolve(IntentJournal.LOG), "B 99 PUT torn.dcm -", StandardCharsets.UTF_8,
                StandardOpenOption.APPEND); // no newline: the append was cut short

        assertThat(IntentJournal.open(dir).leftOver()).containsExactly(whole);
    }

    @Test
    void rotationKeepsTheOpenIntentsAndDropsTheDoneOnes() throws Exception {
        IntentJournal journal = IntentJournal.open(dir, 200);
        IntentJournal.Intent stays = journal.begin(IntentJournal.Op.PUT, "stays.dcm", "9.9");
        for (int i = 0; i < 50; i++) {
            journal.done(journal.begin(IntentJournal.Op.PUT, "p" + i + ".dcm", "1.2." + i));
        }
        assertThat(Files.size(dir.resolve(IntentJournal.LOG))).isLessThan(400);
        IntentJournal.Intent after = journal.begin(IntentJournal.Op.DELETE, "after.dcm", null);

        assertThat(IntentJournal.open(dir).leftOver()).containsExactly(stays, after);
        journal.close();
    }

    @Test
    void theNoneJournalRecordsNothing() throws Exception {
        IntentJournal.Intent i = IntentJournal.NONE.begin(IntentJournal.Op.PUT, "a.dcm", null);
        IntentJournal.NONE.done(i);
        assertThat(IntentJournal.NONE.leftOver()).isEmpty();
        assertThat(IntentJournal.NONE.openCount()).isZero();
    }
}
