package io.lakesync.config;

/**
 * The lake catalog's own store (the JDBC catalog's database) did not accept lakesync; the message names the
 * config keys involved. Not a {@link ConfigException}: the options may be right and the database down.
 */
public class LakeCatalogUnavailableException extends RuntimeException {
    public LakeCatalogUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
