package io.lakesync.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.javalin.Javalin;
import io.javalin.json.JavalinJackson;
import io.javalin.util.JavalinBindException;
import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The HTTP server of one lakesync instance: Javalin on {@code service.host}:{@code service.port} with every
 * {@link HttpRoutes} mounted. JSON is written by Jackson with times as ISO-8601 strings. Refused input is answered
 * in one place: any {@link InvalidInputException} (see {@link RequestInput}) becomes 400 with
 * {@code {"error": ..., "field": ...}}.
 */
public final class HttpApi implements AutoCloseable {

    private final Javalin javalin;
    private final URI url;
    private final List<String> routes;

    private HttpApi(Javalin javalin, String host, List<String> routes) {
        this.javalin = javalin;
        this.url = URI.create("http://" + host + ":" + javalin.port());
        this.routes = List.copyOf(routes);
    }

    /** Starts listening, or fails with a {@link ConfigException} naming {@code service.port} if it is taken. */
    public static HttpApi start(LakeSyncConfig config, List<HttpRoutes> routes) {
        ObjectMapper mapper =
                JavalinJackson.Companion.defaultMapper()
                        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                        .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS);
        List<String> registered = new CopyOnWriteArrayList<>();
        Javalin javalin =
                Javalin.create(javalinConfig -> {
                    javalinConfig.showJavalinBanner = false;
                    javalinConfig.jsonMapper(new JavalinJackson(mapper, false));
                    javalinConfig.events.handlerAdded(handler -> {
                        if (handler.getHttpMethod().isHttpMethod()) {
                            registered.add(handler.getHttpMethod() + " " + handler.getPath());
                        }
                    });
                    javalinConfig.router.mount(router -> router.exception(InvalidInputException.class, (e, ctx) ->
                            ctx.status(400).json(Map.of("error", e.getMessage(), "field", e.field()))));
                    routes.forEach(route -> route.addTo(javalinConfig));
                });
        String host = config.get(LakeSyncOptions.SERVICE_HOST);
        int port = config.get(LakeSyncOptions.SERVICE_PORT);
        try {
            javalin.start(host, port);
        } catch (RuntimeException e) {
            javalin.stop();
            throw e instanceof JavalinBindException ? portInUse(host, port) : e;
        }
        return new HttpApi(javalin, host, registered);
    }

    /**
     * Fails with a {@link ConfigException} naming {@code service.host} if this machine cannot listen on that
     * address, or {@code service.port} if that port is taken, so a caller can refuse to start before it brings
     * up anything slower than an HTTP server.
     */
    public static void requireCanListen(LakeSyncConfig config) {
        String host = config.get(LakeSyncOptions.SERVICE_HOST);
        int port = config.get(LakeSyncOptions.SERVICE_PORT);
        if (!canBind(new InetSocketAddress(host, 0))) {
            String key = LakeSyncOptions.SERVICE_HOST.key();
            throw new ConfigException(
                    "Cannot listen on '" + host + "' (config key '" + key + "'): it is not an address of this "
                            + "machine. Use 127.0.0.1, 0.0.0.0 (every interface) or one of this machine's addresses.");
        }
        if (port != 0 && !canBind(new InetSocketAddress(host, port))) {
            throw portInUse(host, port);
        }
    }

    private static boolean canBind(InetSocketAddress address) {
        if (address.isUnresolved()) {
            return false;
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(address);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static ConfigException portInUse(String host, int port) {
        String key = LakeSyncOptions.SERVICE_PORT.key();
        return new ConfigException(
                "Port " + port + " on " + host + " (config key '" + key + "') is already in use. Stop whatever "
                        + "holds it, or choose another port with '" + key + "' (0 picks a free one).");
    }

    /** The port actually bound (the chosen one when {@code service.port} is 0). */
    public int port() {
        return javalin.port();
    }

    /** Base URL of the API, for example {@code http://127.0.0.1:8080}. */
    public URI url() {
        return url;
    }

    /** Every route served, as {@code "<METHOD> <path>"} (for example {@code "GET /api/v1/tables/{db}/{table}"}). */
    public List<String> routes() {
        return routes;
    }

    @Override
    public void close() {
        javalin.stop();
    }
}
