package io.lakesync.bench.campaign;

import io.lakesync.local.ServerListeners;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The way between the lakesync instances and Fluss, through a {@link TcpProxy} per Fluss server, so that the
 * campaign can delay or cut it while the writer and the checks keep their direct way.
 *
 * <p>Fluss clients learn the tablet servers' addresses from the coordinator's metadata, so a proxy on the
 * bootstrap address alone would not see the tablet-server traffic. Each server therefore gets a second listener,
 * {@value #LISTENER}, bound on a free port and advertised at its proxy's port; Fluss answers a metadata request
 * with the addresses of the listener it came in on, so a client bootstrapping from the coordinator's proxy
 * ({@link #bootstrapServers()}) reaches every server through its proxy, while the servers' own traffic and the
 * driver's stay on {@code FLUSS}.
 */
final class FlussProxies implements ServerListeners, AutoCloseable {

    static final String LISTENER = "CAMPAIGN";
    private static final String COORDINATOR = "coordinator";
    private static final String HOST = InetAddress.getLoopbackAddress().getHostAddress();

    /** A server's extra listener: the port it binds, and the proxy in front of it. */
    private record Route(int boundPort, TcpProxy proxy) {}

    private final Map<String, Route> routes = new LinkedHashMap<>();

    /** The same route each time a server starts again: its clients keep the addresses they learnt. */
    @Override
    public synchronized Map<String, String> options(String server, String flussListener) throws IOException {
        if (flussListener.endsWith(":0")) {
            throw new IllegalArgumentException("The Fluss server " + server + " must listen on a fixed port to be "
                    + "advertised beside its proxy, not " + flussListener + ".");
        }
        Route route = routes.get(server);
        if (route == null) {
            int bound = freePort();
            route = new Route(bound, TcpProxy.start(bound));
            routes.put(server, route);
        }
        return Map.of(
                "bind.listeners", flussListener + "," + LISTENER + "://" + HOST + ":" + route.boundPort(),
                "advertised.listeners", flussListener + "," + LISTENER + "://" + HOST + ":" + route.proxy().port());
    }

    /** Where the lakesync instances bootstrap from: the coordinator's proxy. */
    synchronized String bootstrapServers() {
        Route coordinator = routes.get(COORDINATOR);
        if (coordinator == null) {
            throw new IllegalStateException("The Fluss coordinator has not started with the campaign's listeners.");
        }
        return HOST + ":" + coordinator.proxy().port();
    }

    synchronized void delay(Duration delay) {
        routes.values().forEach(route -> route.proxy().delay(delay));
    }

    synchronized void cut() {
        routes.values().forEach(route -> route.proxy().cut());
    }

    synchronized void heal() {
        routes.values().forEach(route -> route.proxy().heal());
    }

    @Override
    public synchronized void close() throws IOException {
        for (Route route : routes.values()) {
            route.proxy().close();
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
