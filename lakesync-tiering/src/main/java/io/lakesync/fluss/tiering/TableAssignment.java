package io.lakesync.fluss.tiering;

import org.apache.fluss.metadata.TablePath;

/** A table the coordinator handed to this instance for one tiering round, fenced by its tiering epoch. */
public record TableAssignment(long tableId, TablePath tablePath, long tieringEpoch) {

    public TableEpoch epoch() {
        return new TableEpoch(tableId, tieringEpoch);
    }

    @Override
    public String toString() {
        return tablePath + " (id " + tableId + ", epoch " + tieringEpoch + ")";
    }
}
