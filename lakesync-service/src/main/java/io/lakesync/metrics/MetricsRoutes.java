package io.lakesync.metrics;

import io.javalin.config.JavalinConfig;
import io.javalin.security.RouteRole;
import io.lakesync.auth.PublicRoute;
import io.lakesync.auth.Role;
import io.lakesync.server.HttpRoutes;
import java.util.Arrays;
import java.util.List;

/**
 * {@code GET /metrics}: the per-table metrics in Prometheus text format, for a viewer token unless
 * {@code metrics.require-token} is off; {@code GET /api/v1/metrics/catalogue}: what each metric means (viewer).
 */
public final class MetricsRoutes implements HttpRoutes {

    /** One catalogue entry as the JSON API shows it. */
    record MetricDescription(String id, String prometheusName, String help, String unit, boolean counter) {

        static MetricDescription of(TableMetric metric) {
            return new MetricDescription(metric.id(), metric.prometheusName(), metric.help(), metric.unit().label(),
                    metric.isCounter());
        }
    }

    private static final List<MetricDescription> CATALOGUE =
            Arrays.stream(TableMetric.values()).map(MetricDescription::of).toList();

    private final TableMetricsCollector collector;
    private final boolean requireToken;

    /** @param requireToken whether {@code /metrics} needs a token (any role), as {@code metrics.require-token} says */
    public MetricsRoutes(TableMetricsCollector collector, boolean requireToken) {
        this.collector = collector;
        this.requireToken = requireToken;
    }

    @Override
    public void addTo(JavalinConfig config) {
        RouteRole scrapers = requireToken ? Role.VIEWER : PublicRoute.ANYONE;
        config.router.mount(router -> {
            router.get(
                    "/metrics",
                    ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(collector.scrapeText()),
                    scrapers);
            router.get("/api/v1/metrics/catalogue", ctx -> ctx.json(CATALOGUE), Role.VIEWER);
        });
    }
}
