package io.lakesync.tiering.lake;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

/** Which Fluss table a tiering snapshot belongs to, read from the coordinator's offsets path. */
class TieringSnapshotTest {

    private static final String REMOTE = "file:/data/remote/lake";

    @Test
    void offsetsPathNamesTheTableIdEvenWhenTheTableNameHasDashes() {
        TieringSnapshot snapshot = new TieringSnapshot(4, REMOTE + "/shop/click-stream-12/metadata/0b1c.offsets");
        assertThat(snapshot.tableId()).hasValue(12);
        assertThat(snapshot.belongsTo(TablePath.of("shop", "click-stream"), 12)).isTrue();
    }

    @Test
    void aSameNameTableWithAnotherIdOrAnotherDatabaseDoesNotOwnIt() {
        TieringSnapshot snapshot = new TieringSnapshot(4, REMOTE + "/shop/events-0/metadata/0b1c.offsets");
        assertThat(snapshot.belongsTo(TablePath.of("shop", "events"), 1)).isFalse();
        assertThat(snapshot.belongsTo(TablePath.of("other", "events"), 0)).isFalse();
        // "events-1" with id 0 would be the folder "events-1-0", not "events-0".
        assertThat(new TieringSnapshot(4, REMOTE + "/shop/events-1-0/metadata/a.offsets")
                .belongsTo(TablePath.of("shop", "events"), 10)).isFalse();
    }

    @Test
    void aPathWithoutTheCoordinatorsLayoutBelongsToNoTable() {
        TieringSnapshot foreign = new TieringSnapshot(1, "/somewhere/else.json");
        assertThat(foreign.tableId()).isEmpty();
        assertThat(foreign.belongsTo(TablePath.of("shop", "events"), 0)).isFalse();
        assertThat(new TieringSnapshot(1, REMOTE + "/shop/events-x/metadata/a.offsets").tableId()).isEmpty();
    }
}
