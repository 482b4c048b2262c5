package io.lakesync.state;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One connection lent by {@link StateStore#read} or {@link StateStore#write} for the length of a unit of work:
 * parameterised statements only, plus the audit record that every change writes in its own transaction.
 */
public final class Sql {

    private final Connection connection;
    private final Clock clock;

    Sql(Connection connection, Clock clock) {
        this.connection = connection;
        this.clock = clock;
    }

    /** Maps the current row of a result set. */
    @FunctionalInterface
    public interface RowMapper<T> {
        T map(ResultSet row) throws SQLException;
    }

    /** Runs an INSERT, UPDATE or DELETE and returns how many rows it touched. */
    public int update(String sql, Object... params) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            bind(statement, params);
            return statement.executeUpdate();
        }
    }

    /** Runs an INSERT into a table with a generated {@code id} column and returns that id. */
    public long insert(String sql, Object... params) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql, new String[] {"id"})) {
            bind(statement, params);
            statement.executeUpdate();
            try (ResultSet keys = statement.getGeneratedKeys()) {
                if (!keys.next()) {
                    throw new SQLException("The database returned no generated id for: " + sql);
                }
                return keys.getLong(1);
            }
        }
    }

    public <T> List<T> query(String sql, RowMapper<T> mapper, Object... params) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            bind(statement, params);
            try (ResultSet rows = statement.executeQuery()) {
                List<T> result = new ArrayList<>();
                while (rows.next()) {
                    result.add(mapper.map(rows));
                }
                return result;
            }
        }
    }

    /** The first row the query returns, if any. */
    public <T> Optional<T> queryFirst(String sql, RowMapper<T> mapper, Object... params) throws SQLException {
        List<T> rows = query(sql, mapper, params);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    /** The store's clock in epoch milliseconds, the unit of every time column. */
    public long nowMillis() {
        return clock.millis();
    }

    /** Records in the audit log, inside the current transaction, that {@code actor} changed {@code target}. */
    public void audit(String actor, String action, String target, String detail) throws SQLException {
        insert(
                "INSERT INTO audit_log (at, actor, action, target, detail) VALUES (?, ?, ?, ?, ?)",
                nowMillis(), actor, action, target, detail);
    }

    /** A nullable BIGINT column. */
    public static Long nullableLong(ResultSet row, String column) throws SQLException {
        long value = row.getLong(column);
        return row.wasNull() ? null : value;
    }

    /** A nullable DOUBLE PRECISION column. */
    public static Double nullableDouble(ResultSet row, String column) throws SQLException {
        double value = row.getDouble(column);
        return row.wasNull() ? null : value;
    }

    private static void bind(PreparedStatement statement, Object[] params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            Object param = params[i];
            if (param == null) {
                statement.setNull(i + 1, Types.NULL);
            } else if (param instanceof Boolean) {
                statement.setBoolean(i + 1, (Boolean) param);
            } else if (param instanceof Long || param instanceof Integer) {
                statement.setLong(i + 1, ((Number) param).longValue());
            } else if (param instanceof Double) {
                statement.setDouble(i + 1, (Double) param);
            } else if (param instanceof String) {
                statement.setString(i + 1, (String) param);
            } else {
                throw new IllegalArgumentException(
                        "Unsupported SQL parameter type " + param.getClass().getName() + " at position " + (i + 1));
            }
        }
    }
}
