package io.lakesync.config;

/** A configuration key or value that lakesync cannot accept; the message names the key and the fix. */
public class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }
}
