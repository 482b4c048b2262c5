package io.lakesync.alert;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.ForbiddenResponse;
import io.javalin.http.NotFoundResponse;
import io.lakesync.auth.JavalinAuth;
import io.lakesync.auth.Principal;
import io.lakesync.auth.Role;
import io.lakesync.server.HttpRoutes;
import io.lakesync.server.RequestInput;
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
 * Reads need a viewer, changes an operator; a webhook channel can be created or replaced only by an owner (its
 * URL usually holds a secret, and it decides where alerts go), and only an owner sees webhook URLs: others get
 * them redacted. A bad rule, channel or query parameter answers 400 naming the field; deleting a channel that
 * rules still use answers 409 naming them.
 */
public final class AlertRoutes implements HttpRoutes {

    /** The body of {@code PUT /api/v1/alerts/channels/{name}}. */
    record ChannelSpec(String type, String url) {}

    /** A channel as the API shows it; {@code urlRedacted} says {@code url} was masked for the caller. */
    record ChannelView(String name, ChannelConfig.Type type, String url, boolean urlRedacted) {

        static ChannelView of(ChannelConfig channel, Role viewer) {
            boolean redact = channel.url() != null && !viewer.includes(Role.OWNER);
            return new ChannelView(channel.name(), channel.type(),
                    redact ? channel.redactedUrl() : channel.url() == null ? null : channel.url().toString(), redact);
        }
    }

    /** Most events one history call returns. */
    static final int MAX_EVENTS = 10_000;

    private final Alerting alerting;

    public AlertRoutes(Alerting alerting) {
        this.alerting = alerting;
    }

    @Override
    public void addTo(JavalinConfig config) {
        config.router.mount(router -> {
            router.get("/api/v1/alerts/rules", ctx -> ctx.json(alerting.rules().list().stream().map(AlertRuleSpec::of).toList()), Role.VIEWER);
            router.get("/api/v1/alerts/rules/{name}", ctx -> ctx.json(AlertRuleSpec.of(alerting.rules().get(name(ctx, "Alert rule"))
                    .orElseThrow(() -> new NotFoundResponse("No alert rule '" + ctx.pathParam("name") + "'.")))), Role.VIEWER);
            router.put("/api/v1/alerts/rules/{name}", ctx -> {
                String name = name(ctx, "Alert rule");
                AlertRuleSpec body = RequestInput.body(ctx, AlertRuleSpec.class);
                AlertRuleSpec named = new AlertRuleSpec(name, body.metric(), body.comparison(), body.threshold(),
                        body.window(), body.forDuration(), body.tables(), body.severity(), body.channels(), body.enabled(), body.description());
                AlertRule rule = named.toRule();
                boolean created = alerting.rules().save(rule, actor(ctx).name());
                ctx.status(created ? 201 : 200).json(AlertRuleSpec.of(rule));
            }, Role.OPERATOR);
            router.delete("/api/v1/alerts/rules/{name}", ctx -> deleted(ctx, alerting.rules().delete(name(ctx, "Alert rule"), actor(ctx).name()), "alert rule"), Role.OPERATOR);

            router.get("/api/v1/alerts/channels", ctx -> {
                Role role = actor(ctx).role();
                ctx.json(alerting.channels().list().stream().map(channel -> ChannelView.of(channel, role)).toList());
            }, Role.VIEWER);
            router.put("/api/v1/alerts/channels/{name}", ctx -> {
                String name = name(ctx, "Channel");
                ChannelSpec body = RequestInput.body(ctx, ChannelSpec.class);
                ChannelConfig channel = ChannelConfig.parse(name, body.type(), body.url());
                Principal caller = actor(ctx);
                boolean replacesWebhook = alerting.channels().get(channel.name())
                        .filter(existing -> existing.type() == ChannelConfig.Type.WEBHOOK).isPresent();
                if ((channel.type() == ChannelConfig.Type.WEBHOOK || replacesWebhook) && !caller.role().includes(Role.OWNER)) {
                    throw new ForbiddenResponse("Forbidden: only an owner may create or change a webhook channel ('"
                            + channel.name() + "'), since its URL decides where alerts and their details go; token '"
                            + caller.name() + "' has role " + caller.role().label() + ".");
                }
                boolean created = alerting.channels().save(channel, caller.name());
                ctx.status(created ? 201 : 200).json(ChannelView.of(channel, caller.role()));
            }, Role.OPERATOR);
            router.delete("/api/v1/alerts/channels/{name}", ctx -> deleted(ctx, alerting.channels().delete(name(ctx, "Channel"), actor(ctx).name()), "channel"), Role.OPERATOR);

            router.get("/api/v1/alerts/events", ctx -> {
                if (RequestInput.booleanQuery(ctx, "active").orElse(false)) {
                    ctx.json(alerting.events().active());
                    return;
                }
                ctx.json(alerting.events().history(new AlertHistoryQuery(
                        ctx.queryParam("rule"),
                        ctx.queryParam("table"),
                        RequestInput.instantQuery(ctx, "since").orElse(null),
                        RequestInput.intQuery(ctx, "limit", 1, MAX_EVENTS).orElse(100))));
            }, Role.VIEWER);

            router.exception(ChannelInUseException.class, (e, ctx) ->
                    ctx.status(409).json(Map.of("error", e.getMessage(), "rules", e.rules())));
        });
    }

    /** The {@code {name}} path parameter, checked against the naming rule of rules and channels. */
    private static String name(Context ctx, String subject) {
        return Names.check(subject, "name", ctx.pathParam("name"));
    }

    private static void deleted(Context ctx, boolean existed, String what) {
        if (!existed) {
            throw new NotFoundResponse("No " + what + " '" + ctx.pathParam("name") + "'.");
        }
        ctx.status(204);
    }

    private static Principal actor(Context ctx) {
        return JavalinAuth.principal(ctx);
    }
}
