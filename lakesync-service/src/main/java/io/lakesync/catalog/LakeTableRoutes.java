package io.lakesync.catalog;

import io.javalin.config.JavalinConfig;
import io.lakesync.auth.Role;
import io.lakesync.server.HttpRoutes;
import io.lakesync.server.RequestInput;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;

/**
 * Lake tables that outlived their Fluss table: {@code GET /api/v1/lake/retained} lists them and
 * {@code DELETE /api/v1/lake/retained/{db}/{table}} deletes one (operator); a refusal answers 409.
 */
public final class LakeTableRoutes implements HttpRoutes {

    private final LakeCatalog lake;

    public LakeTableRoutes(LakeCatalog lake) {
        this.lake = lake;
    }

    @Override
    public void addTo(JavalinConfig config) {
        config.router.mount(router -> {
            router.get("/api/v1/lake/retained", ctx -> ctx.json(lake.retainedTables()), Role.VIEWER);
            router.delete("/api/v1/lake/retained/{db}/{table}", ctx -> {
                TablePath path = RequestInput.tablePath(ctx);
                lake.deleteRetained(path);
                ctx.json(Map.of("deleted", path.toString()));
            }, Role.OPERATOR);
            router.exception(LakeTableConflictException.class,
                    (e, ctx) -> ctx.status(409).json(Map.of("error", e.getMessage())));
        });
    }
}
