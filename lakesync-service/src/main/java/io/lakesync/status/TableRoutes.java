package io.lakesync.status;

import io.javalin.config.JavalinConfig;
import io.javalin.http.NotFoundResponse;
import io.lakesync.auth.Role;
import io.lakesync.server.HttpRoutes;
import io.lakesync.server.RequestInput;
import java.util.List;
import org.apache.fluss.metadata.TablePath;

/**
 * {@code GET /api/v1/tables}: every table's sync status; {@code GET /api/v1/tables/{db}/{table}}: one table
 * with its recent history, for charts.
 */
public final class TableRoutes implements HttpRoutes {

    private final TableStatusTracker tracker;

    public TableRoutes(TableStatusTracker tracker) {
        this.tracker = tracker;
    }

    @Override
    public void addTo(JavalinConfig config) {
        config.router.mount(router -> {
            router.get("/api/v1/tables", ctx -> ctx.json(tracker.tables().stream().map(s -> TableView.of(s, null)).toList()), Role.VIEWER);
            router.get("/api/v1/tables/{db}/{table}", ctx -> {
                TablePath path = RequestInput.tablePath(ctx);
                TableStatus status = tracker.table(path)
                        .orElseThrow(() -> new NotFoundResponse("No table " + path + " (it may not exist, or the status is still loading)."));
                ctx.json(TableView.of(status, tracker.history(path)));
            }, Role.VIEWER);
        });
    }

    /** The table list, for callers inside the service. */
    public List<TableStatus> tables() {
        return tracker.tables();
    }
}
