package io.lakesync.catalog;

/** A Paimon table written by Fluss tiering, with how many snapshots it holds. */
public record LakeTableInfo(String database, String table, long snapshots) {

    public String name() {
        return database + "." + table;
    }
}
