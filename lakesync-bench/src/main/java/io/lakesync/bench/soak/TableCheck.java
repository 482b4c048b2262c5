package io.lakesync.bench.soak;

/**
 * What the row-by-row check of one lake table found.
 *
 * @param written what the writer wrote, in words (rows, or operations and live keys)
 * @param checked rows read from the lake
 * @param lost rows (log) or live keys (primary key) written but not in the lake
 * @param duplicated lake rows beyond the first of the same id (log) or key (primary key)
 * @param mismatched lake rows whose values differ from what was written last (or whose partition does), and
 *     rows that should not be there at all (an id never written, a deleted key)
 */
public record TableCheck(String table, String kind, String written, long checked, long lost, long duplicated, long mismatched) {

    public boolean exact() {
        return lost == 0 && duplicated == 0 && mismatched == 0;
    }
}
