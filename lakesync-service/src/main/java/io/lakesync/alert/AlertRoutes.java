package io.lakesync.alert;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.NotFoundResponse;
import io.lakesync.auth.JavalinAuth;
import io.lakesync.auth.Role;
import io.lakesync.server.HttpRoutes;
import java.time.Instant;
import java.util.Map;

/**
 * Alert rules, channels and history over HTTP:
 *
 * <pre>
 *   GET    /api/v1/alerts/rules                 PUT /api/v1/alerts/rules/{name}      DELETE /api/v1/alerts/rules/{name}
 *   GET    /api/v1/alerts/channels              PUT /api/v1/alerts/channels/{name}   DELETE /api/v1/alerts/channels/{name}
 *   GET    /api/v1/alerts/events?active=true|rule=|table=|since=|limit=
 * </pre>
 *
 * Reads need a viewer, changes an operator. A bad rule answers 400 naming the field; deleting a channel that
 * rules still use answers 409 naming them.
 */
public final class AlertRoutes implements HttpRoutes {

    /** The body of {@code PUT /api/v1/alerts/channels/{name}}. */
    record ChannelSpec(String type, String url) {}

    private final Alerting alerting;

    public AlertRoutes(Alerting alerting) {
        this.alerting = alerting;
    }

    @Override
    public void addTo(JavalinConfig config) {
        config.router.mount(router -> {
            router.get("/api/v1/alerts/rules", ctx -> ctx.json(alerting.rules().list().stream().map(AlertRuleSpec::of).toList()), Role.VIEWER);
            router.get("/api/v1/alerts/rules/{name}", ctx -> ctx.json(AlertRuleSpec.of(alerting.rules().get(ctx.pathParam("name"))
                    .orElseThrow(() -> new NotFoundResponse("No alert rule '" + ctx.pathParam("name") + "'.")))), Role.VIEWER);
            router.put("/api/v1/alerts/rules/{name}", ctx -> {
                AlertRuleSpec body = ctx.bodyAsClass(AlertRuleSpec.class);
                AlertRuleSpec named = new AlertRuleSpec(ctx.pathParam("name"), body.metric(), body.comparison(), body.threshold(),
                        body.window(), body.forDuration(), body.tables(), body.severity(), body.channels(), body.enabled(), body.description());
                boolean created = alerting.rules().save(named.toRule(), actor(ctx));
                ctx.status(created ? 201 : 200).json(named);
            }, Role.OPERATOR);
            router.delete("/api/v1/alerts/rules/{name}", ctx -> deleted(ctx, alerting.rules().delete(ctx.pathParam("name"), actor(ctx)), "alert rule"), Role.OPERATOR);

            router.get("/api/v1/alerts/channels", ctx -> ctx.json(alerting.channels().list()), Role.VIEWER);
            router.put("/api/v1/alerts/channels/{name}", ctx -> {
                ChannelSpec body = ctx.bodyAsClass(ChannelSpec.class);
                ChannelConfig channel = ChannelConfig.parse(ctx.pathParam("name"), body.type(), body.url());
                boolean created = alerting.channels().save(channel, actor(ctx));
                ctx.status(created ? 201 : 200).json(channel);
            }, Role.OPERATOR);
            router.delete("/api/v1/alerts/channels/{name}", ctx -> deleted(ctx, alerting.channels().delete(ctx.pathParam("name"), actor(ctx)), "channel"), Role.OPERATOR);

            router.get("/api/v1/alerts/events", ctx -> {
                if (Boolean.parseBoolean(ctx.queryParam("active"))) {
                    ctx.json(alerting.events().active());
                    return;
                }
                String since = ctx.queryParam("since");
                String limit = ctx.queryParam("limit");
                ctx.json(alerting.events().history(new AlertHistoryQuery(
                        ctx.queryParam("rule"),
                        ctx.queryParam("table"),
                        since == null ? null : Instant.parse(since),
                        limit == null ? 100 : Integer.parseInt(limit))));
            }, Role.VIEWER);

            router.exception(InvalidAlertConfigException.class, (e, ctx) ->
                    ctx.status(400).json(Map.of("error", e.getMessage(), "field", e.field())));
            router.exception(ChannelInUseException.class, (e, ctx) ->
                    ctx.status(409).json(Map.of("error", e.getMessage(), "rules", e.rules())));
        });
    }

    private static void deleted(Context ctx, boolean existed, String what) {
        if (!existed) {
            throw new NotFoundResponse("No " + what + " '" + ctx.pathParam("name") + "'.");
        }
        ctx.status(204);
    }

    private static String actor(Context ctx) {
        return JavalinAuth.principal(ctx).name();
    }
}
