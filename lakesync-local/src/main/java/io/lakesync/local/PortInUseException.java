package io.lakesync.local;

import io.lakesync.config.ConfigException;

/** A port the local stack was told to use is taken by another process. */
public class PortInUseException extends ConfigException {
    public PortInUseException(String optionKey, int port) {
        super(
                "Port " + port + " on 127.0.0.1 (config key '" + optionKey
                        + "') is already in use. Stop whatever holds it, or choose another port with '"
                        + optionKey + "' (0 picks a free one).");
    }
}
