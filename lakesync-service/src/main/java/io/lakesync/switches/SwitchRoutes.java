package io.lakesync.switches;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.lakesync.auth.JavalinAuth;
import io.lakesync.auth.Role;
import io.lakesync.catalog.CheckResult;
import io.lakesync.server.HttpRoutes;
import io.lakesync.server.RequestInput;
import io.lakesync.state.ServiceSwitchRepository;
import java.util.List;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;

/**
 * The switches over HTTP: {@code GET /api/v1/service}, {@code POST /api/v1/service/enable|disable} (owner),
 * {@code POST /api/v1/tables/{db}/{table}/enable|disable} and {@code POST /api/v1/tables/{db}/{table}/adopt
 * [?keepOldKeys=true]} (operator). A refused switch answers 409 with the reason and, for the service, the checks
 * that ran.
 */
public final class SwitchRoutes implements HttpRoutes {

    /** The body of a refusal. */
    record Refusal(String error, List<CheckResult> checks) {}

    private final ServiceSwitchControl service;
    private final ServiceSwitchRepository switchState;
    private final TableSwitches tables;

    public SwitchRoutes(ServiceSwitchControl service, ServiceSwitchRepository switchState, TableSwitches tables) {
        this.service = service;
        this.switchState = switchState;
        this.tables = tables;
    }

    @Override
    public void addTo(JavalinConfig config) {
        config.router.mount(router -> {
            router.get("/api/v1/service", ctx -> ctx.json(Map.of(
                    "enabled", service.isEnabled(),
                    "lastChange", switchState.get().map(Object.class::cast).orElse(Map.of()))), Role.VIEWER);
            router.post("/api/v1/service/enable",
                    ctx -> ctx.json(Map.of("enabled", true, "checks", service.enable(actor(ctx)))), Role.OWNER);
            router.post("/api/v1/service/disable", ctx -> {
                service.disable(actor(ctx));
                ctx.json(Map.of("enabled", false));
            }, Role.OWNER);
            router.post("/api/v1/tables/{db}/{table}/enable", ctx -> {
                TablePath path = RequestInput.tablePath(ctx);
                tables.enable(path, actor(ctx));
                ctx.json(Map.of("table", path.toString(), "enabled", true));
            }, Role.OPERATOR);
            router.post("/api/v1/tables/{db}/{table}/disable", ctx -> {
                TablePath path = RequestInput.tablePath(ctx);
                tables.disable(path, actor(ctx));
                ctx.json(Map.of("table", path.toString(), "enabled", false));
            }, Role.OPERATOR);
            router.post("/api/v1/tables/{db}/{table}/adopt", ctx -> {
                TablePath path = RequestInput.tablePath(ctx);
                boolean keepOldKeys = RequestInput.booleanQuery(ctx, "keepOldKeys").orElse(false);
                ctx.json(tables.adopt(path, keepOldKeys, actor(ctx)));
            }, Role.OPERATOR);
            router.exception(SwitchRefusedException.class,
                    (e, ctx) -> ctx.status(409).json(new Refusal(e.getMessage(), e.checks())));
        });
    }

    private static String actor(Context ctx) {
        return JavalinAuth.principal(ctx).name();
    }
}
