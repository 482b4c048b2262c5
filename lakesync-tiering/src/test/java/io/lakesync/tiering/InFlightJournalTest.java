package io.lakesync.tiering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.fluss.tiering.TableEpoch;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InFlightJournalTest {

    @TempDir Path dir;

    @Test
    void anUpdateForgetsReleasedHoldsKeepsNewerOnesAndAddsTheTakenTable() throws Exception {
        InFlightJournal journal = new InFlightJournal(dir.resolve("in-flight"));
        journal.update(List.of(), new TableEpoch(1, 1), 0);
        journal.update(List.of(), new TableEpoch(2, 1), 0);
        journal.update(List.of(), new TableEpoch(1, 2), 3);

        journal.update(List.of(new TableEpoch(1, 1), new TableEpoch(2, 1)), new TableEpoch(3, 1), 3);

        assertThat(new InFlightJournal(dir.resolve("in-flight")).recover()).as("as a restarted instance reads it")
                .containsExactly(
                        new InFlightJournal.Entry(new TableEpoch(1, 2), 3),
                        new InFlightJournal.Entry(new TableEpoch(3, 1), 3));
    }

    @Test
    void aFolderRemovedUnderTheJournalIsMadeAgainByTheNextWriteAfterAFailedOne() throws Exception {
        Path folder = dir.resolve("work");
        InFlightJournal journal = new InFlightJournal(folder.resolve("in-flight"));
        journal.update(List.of(), new TableEpoch(1, 1), 0);
        Files.delete(folder.resolve("in-flight"));
        Files.delete(folder);

        assertThatThrownBy(() -> journal.update(List.of(), new TableEpoch(2, 1), 0))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("in-flight");
        journal.update(List.of(), new TableEpoch(3, 1), 0);

        assertThat(new InFlightJournal(folder.resolve("in-flight")).recover()).extracting(InFlightJournal.Entry::table)
                .containsExactly(new TableEpoch(1, 1), new TableEpoch(2, 1), new TableEpoch(3, 1));
    }

    @Test
    void changesAreAppendedAndTheFileIsRewrittenWithTheHoldsOnceTheLinesPileUp() throws Exception {
        Path file = dir.resolve("in-flight");
        InFlightJournal journal = new InFlightJournal(file);
        journal.update(List.of(), new TableEpoch(1, 1), 0);
        for (long table = 2; table <= 1_000; table++) {
            journal.update(List.of(new TableEpoch(table - 1, 1)), new TableEpoch(table, 1), 2);
            if (table == 3) {
                // Appended: the release of table 1, the holds of tables 2 and 3 and the release of table 2.
                assertThat(Files.readAllLines(file)).containsExactly("1 1 0", "- 1 1", "2 1 2", "- 2 1", "3 1 2");
                assertThat(new InFlightJournal(file).recover())
                        .containsExactly(new InFlightJournal.Entry(new TableEpoch(3, 1), 2));
            }
        }

        assertThat(Files.readAllLines(file).size()).as("rewritten along the way").isLessThan(600);
        assertThat(new InFlightJournal(file).recover())
                .containsExactly(new InFlightJournal.Entry(new TableEpoch(1_000, 1), 2));
        journal.close();
    }

    @Test
    void aJournalOfHoldsAloneIsRecovered() throws Exception {
        Path file = dir.resolve("in-flight");
        Files.writeString(file, "4 2 1\n5 1 1\n");

        assertThat(new InFlightJournal(file).recover()).containsExactly(
                new InFlightJournal.Entry(new TableEpoch(4, 2), 1), new InFlightJournal.Entry(new TableEpoch(5, 1), 1));
    }

    @Test
    void anUpdateThatChangesNothingWritesNothing() throws Exception {
        Path file = dir.resolve("in-flight");
        InFlightJournal journal = new InFlightJournal(file);
        journal.update(List.of(new TableEpoch(1, 1)), null, 0);
        assertThat(file).doesNotExist();
    }
}
