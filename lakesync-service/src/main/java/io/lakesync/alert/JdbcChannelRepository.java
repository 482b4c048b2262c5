package io.lakesync.alert;

import io.lakesync.state.StateStore;
import java.net.URI;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/** {@link ChannelRepository} over {@code notification_channel}. */
final class JdbcChannelRepository implements ChannelRepository {

    private static final String SELECT = "SELECT name, type, url FROM notification_channel";

    private final StateStore store;

    JdbcChannelRepository(StateStore store) {
        this.store = store;
    }

    @Override
    public List<ChannelConfig> list() {
        return store.read(sql -> sql.query(SELECT + " ORDER BY name", JdbcChannelRepository::map));
    }

    @Override
    public Optional<ChannelConfig> get(String name) {
        return store.read(sql -> sql.queryFirst(SELECT + " WHERE name = ?", JdbcChannelRepository::map, name));
    }

    @Override
    public boolean save(ChannelConfig channel, String actor) {
        return store.write(sql -> {
            long now = sql.nowMillis();
            String url = channel.url() == null ? null : channel.url().toString();
            boolean updated = sql.update(
                    "UPDATE notification_channel SET type = ?, url = ?, updated_at = ? WHERE name = ?",
                    channel.type().name(), url, now, channel.name()) > 0;
            if (!updated) {
                sql.update("INSERT INTO notification_channel (name, type, url, created_at, updated_at) "
                        + "VALUES (?, ?, ?, ?, ?)", channel.name(), channel.type().name(), url, now, now);
            }
            sql.audit(actor, updated ? "channel.update" : "channel.create", channel.name(),
                    channel.type() + (url == null ? "" : " " + url));
            return !updated;
        });
    }

    @Override
    public boolean delete(String name, String actor) {
        return store.write(sql -> {
            List<String> users = sql.query(
                    "SELECT rule_name FROM alert_rule_channel WHERE channel_name = ? ORDER BY rule_name",
                    row -> row.getString(1), name);
            if (!users.isEmpty()) {
                throw new ChannelInUseException(name, users);
            }
            boolean deleted = sql.update("DELETE FROM notification_channel WHERE name = ?", name) > 0;
            if (deleted) {
                sql.audit(actor, "channel.delete", name, "");
            }
            return deleted;
        });
    }

    private static ChannelConfig map(ResultSet row) throws SQLException {
        String url = row.getString("url");
        return new ChannelConfig(
                row.getString("name"),
                ChannelConfig.Type.valueOf(row.getString("type")),
                url == null ? null : URI.create(url));
    }
}
