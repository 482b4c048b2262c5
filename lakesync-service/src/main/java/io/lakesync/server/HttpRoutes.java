package io.lakesync.server;

import io.javalin.config.JavalinConfig;

/**
 * One capability's part of the HTTP API. Each package that serves HTTP (health here; tables, metrics, alerts,
 * console elsewhere) implements this and is listed by {@link LakeSyncServer}, the composition root, so no
 * package needs to know about the others.
 */
@FunctionalInterface
public interface HttpRoutes {

    /**
     * Adds this capability's routes (and, if it needs them, static files or exception handlers) to the
     * server being built, typically via {@code config.router.mount(router -> router.get(...))}.
     */
    void addTo(JavalinConfig config);
}
