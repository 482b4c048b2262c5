package io.lakesync.metrics;

import io.javalin.config.JavalinConfig;
import io.lakesync.auth.PublicRoute;
import io.lakesync.server.HttpRoutes;

/** {@code GET /metrics}: the per-table metrics in Prometheus text format, open to scrapers without a token. */
public final class MetricsRoutes implements HttpRoutes {

    private final TableMetricsCollector collector;

    public MetricsRoutes(TableMetricsCollector collector) {
        this.collector = collector;
    }

    @Override
    public void addTo(JavalinConfig config) {
        config.router.mount(router -> router.get(
                "/metrics",
                ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(collector.scrapeText()),
                PublicRoute.ANYONE));
    }
}
