package io.lakesync.config;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;

/**
 * Checks the Paimon catalog options ({@value LakeSyncOptions#LAKE_PREFIX}{@code *}) before a catalog is opened on
 * them, so a catalog that cannot work stops the start with the config key to fix, instead of failing deep inside
 * Paimon or the Fluss coordinator.
 *
 * <p>Only the JDBC catalog ({@code metastore = jdbc}) needs more than Paimon checks itself: its {@code uri} must
 * be set, a JDBC driver on the class path must accept it (lakesync ships the PostgreSQL and SQLite drivers), and
 * the database must answer a login with {@code jdbc.user} and {@code jdbc.password}.
 */
public final class LakeCatalogCheck {

    static final String METASTORE = "metastore";
    static final String URI = "uri";
    static final String JDBC_PROPERTY_PREFIX = "jdbc.";

    private LakeCatalogCheck() {}

    /**
     * Throws a {@link ConfigException} naming the key when the options cannot describe a working catalog, or a
     * {@link LakeCatalogUnavailableException} when the JDBC catalog's database does not accept a login.
     */
    public static void check(Map<String, String> catalogOptions) {
        if (!"jdbc".equalsIgnoreCase(catalogOptions.getOrDefault(METASTORE, "filesystem").trim())) {
            return;
        }
        String uri = catalogOptions.get(URI);
        if (uri == null || uri.isBlank()) {
            throw new ConfigException("Missing config key '" + key(URI) + "': the Paimon JDBC catalog ('"
                    + key(METASTORE) + "' = 'jdbc') needs the JDBC URL of its database, for example '"
                    + key(URI) + ": jdbc:postgresql://catalog-db:5432/paimon'.");
        }
        try {
            DriverManager.getDriver(uri);
        } catch (SQLException noDriver) {
            throw new ConfigException("Invalid value '" + shown(uri) + "' for config key '" + key(URI)
                    + "': no JDBC driver on lakesync's class path accepts this URL (lakesync ships the PostgreSQL "
                    + "and SQLite drivers: jdbc:postgresql://..., jdbc:sqlite:...). Use one of those, or add the "
                    + "database's driver jar to lakesync (LAKESYNC_CLASSPATH) and to the Fluss servers' class path.");
        }
        try (Connection ignored = DriverManager.getConnection(uri, loginProperties(catalogOptions))) {
            // A login is all the check needs: Paimon creates its catalog tables on first use.
        } catch (SQLException e) {
            throw new LakeCatalogUnavailableException("Cannot open the Paimon JDBC catalog: the database at '"
                    + shown(uri) + "' (config key '" + key(URI) + "', user '"
                    + catalogOptions.getOrDefault(JDBC_PROPERTY_PREFIX + "user", "")
                    + "' from '" + key(JDBC_PROPERTY_PREFIX + "user") + "') refused or did not answer a login: "
                    + e.getMessage() + " Check that the database exists and is reachable from this host, and the "
                    + "user and '" + key(JDBC_PROPERTY_PREFIX + "password") + "'.", e);
        }
    }

    /** The {@code jdbc.*} options without their prefix, as Paimon's JDBC catalog hands them to the driver. */
    private static Properties loginProperties(Map<String, String> catalogOptions) {
        Properties properties = new Properties();
        catalogOptions.forEach((k, v) -> {
            if (k.startsWith(JDBC_PROPERTY_PREFIX)) {
                properties.setProperty(k.substring(JDBC_PROPERTY_PREFIX.length()), v);
            }
        });
        return properties;
    }

    /** The URL without its query, which may carry a password. */
    private static String shown(String uri) {
        int query = uri.indexOf('?');
        return query < 0 ? uri : uri.substring(0, query) + "?...";
    }

    private static String key(String catalogOption) {
        return LakeSyncOptions.LAKE_PREFIX + catalogOption;
    }
}
