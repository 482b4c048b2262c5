package io.lakesync.usage;

import io.javalin.config.JavalinConfig;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import io.lakesync.auth.Role;
import io.lakesync.server.HttpRoutes;
import io.lakesync.state.StateStore;
import io.lakesync.tiering.capacity.CapacityQuotas;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * {@code GET /api/v1/usage?from&to&by=table|database|day}: CU-hours, CPU, memory, rows and bytes per group
 * between two hours (UTC; {@code from} rounded down, {@code to} up to whole hours; by default the last 24),
 * split into provisioned and pay-as-you-go, with the CU quotas ({@link UsageReport}).
 */
public final class UsageRoutes implements HttpRoutes {

    private final UsageRepository repository;
    private final UsageMeter meter;
    private final double provisionedCu;
    private final CapacityQuotas quota;
    private final Clock clock;

    public UsageRoutes(StateStore store, UsageMeter meter, double provisionedCu, CapacityQuotas quota, Clock clock) {
        this.repository = new UsageRepository(store);
        this.meter = meter;
        this.provisionedCu = provisionedCu;
        this.quota = quota;
        this.clock = clock;
    }

    @Override
    public void addTo(JavalinConfig config) {
        config.router.mount(router -> router.get("/api/v1/usage", ctx -> ctx.json(report(ctx)), Role.VIEWER));
    }

    private UsageReport report(Context ctx) {
        Instant to = ceilToHour(time(ctx, "to", clock.instant()));
        Instant from = time(ctx, "from", to.minus(Duration.ofDays(1))).truncatedTo(ChronoUnit.HOURS);
        if (!from.isBefore(to)) {
            throw new BadRequestResponse("Parameter 'from' (" + from + ") must be before 'to' (" + to + ").");
        }
        UsageGrouping by;
        try {
            by = UsageGrouping.parse(ctx.queryParamAsClass("by", String.class).getOrDefault("table"));
        } catch (IllegalArgumentException e) {
            throw new BadRequestResponse(e.getMessage());
        }
        // This instance's latest rounds count too, not only what the last periodic write stored.
        meter.flush();
        return UsageReport.of(from, to, by, provisionedCu, quota, repository.between(from, to));
    }

    /** An ISO instant ({@code 2026-11-30T10:00:00Z}) or a day ({@code 2026-11-30}, its start in UTC). */
    private static Instant time(Context ctx, String parameter, Instant fallback) {
        String value = ctx.queryParam(parameter);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return value.length() == 10 ? LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant() : Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new BadRequestResponse("Parameter '" + parameter + "' must be a UTC time like 2026-11-30T10:00:00Z "
                    + "or a day like 2026-11-30, not '" + value + "'.");
        }
    }

    private static Instant ceilToHour(Instant time) {
        Instant hour = time.truncatedTo(ChronoUnit.HOURS);
        return hour.equals(time) ? hour : hour.plus(Duration.ofHours(1));
    }
}
