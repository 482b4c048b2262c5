package io.lakesync.local;

import java.util.Map;

/**
 * The listeners of each Fluss server of the local stack beyond its own {@code FLUSS} one. Fluss answers a
 * client's metadata request with the servers' addresses on the listener the request came in on, so a client
 * that bootstraps from an extra listener reaches every server through that listener's advertised addresses: a
 * fault campaign advertises proxies there.
 */
@FunctionalInterface
public interface ServerListeners {

    /** Only the {@code FLUSS} listener. */
    ServerListeners NONE = (server, flussListener) -> Map.of();

    /**
     * Server options ({@code bind.listeners}, {@code advertised.listeners}) replacing the defaults of the server
     * named {@code server} ({@code coordinator}, {@code tablet-server-0}, ...), whose own listener is
     * {@code flussListener} ({@code FLUSS://host:port}); empty for the defaults.
     */
    Map<String, String> options(String server, String flussListener) throws Exception;
}
