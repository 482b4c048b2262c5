package io.lakesync.fluss;

import org.apache.fluss.client.Connection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.row.InternalRow;

/**
 * One Fluss table opened for writing: upserts and deletes of a primary-key table, appends to a log table; each
 * call hands the row to the client's writer, which sends it in the background until {@link #flush()}. Opened by
 * {@link FlussClient}.
 */
public final class TableWrites implements AutoCloseable {

    private final Table table;
    /** The connection the table was opened on, this writer's alone. */
    private final Connection connection;
    private final UpsertWriter upserts;
    private final AppendWriter appends;

    TableWrites(Table table, Connection connection) {
        this.table = table;
        this.connection = connection;
        boolean keyed = table.getTableInfo().hasPrimaryKey();
        this.upserts = keyed ? table.newUpsert().createWriter() : null;
        this.appends = keyed ? null : table.newAppend().createWriter();
    }

    /** Inserts or updates the row of its key (a primary-key table). */
    public void upsert(InternalRow row) {
        keyed("upsert").upsert(row);
    }

    /** Deletes the row of the key that {@code row} holds (a primary-key table). */
    public void delete(InternalRow row) {
        keyed("delete").delete(row);
    }

    /** Appends the row (a log table). */
    public void append(InternalRow row) {
        if (appends == null) {
            throw new IllegalStateException("Table " + table.getTableInfo().getTablePath()
                    + " has a primary key: rows are upserted or deleted, not appended.");
        }
        appends.append(row);
    }

    /** Waits until every row handed over so far is in Fluss. */
    public void flush() {
        if (upserts != null) {
            upserts.flush();
        } else {
            appends.flush();
        }
    }

    private UpsertWriter keyed(String what) {
        if (upserts == null) {
            throw new IllegalStateException("Table " + table.getTableInfo().getTablePath()
                    + " is a log table without a primary key: rows are appended, not " + what + "d.");
        }
        return upserts;
    }

    @Override
    public void close() throws Exception {
        try {
            table.close();
        } finally {
            connection.close();
        }
    }
}
