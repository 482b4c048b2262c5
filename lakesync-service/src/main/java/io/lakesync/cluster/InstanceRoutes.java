package io.lakesync.cluster;

import io.javalin.config.JavalinConfig;
import io.lakesync.auth.Role;
import io.lakesync.server.HttpRoutes;
import java.util.Map;

/** {@code GET /api/v1/instances}: every lakesync instance on this state, alive or not, and which one leads. */
public final class InstanceRoutes implements HttpRoutes {

    private final ClusterNode node;

    public InstanceRoutes(ClusterNode node) {
        this.node = node;
    }

    @Override
    public void addTo(JavalinConfig config) {
        config.router.mount(router -> router.get("/api/v1/instances",
                ctx -> ctx.json(Map.of("self", node.id(), "instances", node.instances())), Role.VIEWER));
    }
}
