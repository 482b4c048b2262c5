package io.lakesync.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.lakesync.tiering.capacity.CapacityQuotas;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UsageReportTest {

    private static final Instant H0 = Instant.parse("2026-11-30T22:00:00Z");
    private static final Instant H1 = Instant.parse("2026-11-30T23:00:00Z");
    private static final Instant H2 = Instant.parse("2026-12-01T00:00:00Z");
    private static final CapacityQuotas QUOTA = new CapacityQuotas(16, Map.of("sales", 4));

    private static final List<HourlyUsage> HOURS = List.of(
            // 22:00: 3 CU-hours in all, 2 provisioned: two thirds of each table's usage is provisioned.
            usage(H0, "sales", "orders", 2.0),
            usage(H0, "logs", "clicks", 1.0),
            // 23:00: 1 CU-hour, all provisioned.
            usage(H1, "sales", "orders", 1.0),
            // 00:00 the next day: 4 CU-hours, 2 provisioned.
            usage(H2, "sales", "orders", 4.0));

    @Test
    void eachHoursProvisionedCapacityIsUsedFirstAndSharedByItsTables() {
        UsageReport report = UsageReport.of(H0, H2.plusSeconds(3600), UsageGrouping.TABLE, 2.0, QUOTA, HOURS);

        assertThat(report.lines()).extracting(UsageReport.Line::key).containsExactly("logs.clicks", "sales.orders");
        assertThat(report.quota()).as("the quotas, shown with the usage").isEqualTo(QUOTA);
        UsageReport.Line clicks = report.lines().get(0);
        UsageReport.Line orders = report.lines().get(1);
        assertThat(clicks.provisionedCuHours()).isCloseTo(2.0 / 3, within(1e-9));
        assertThat(clicks.payAsYouGoCuHours()).isCloseTo(1.0 / 3, within(1e-9));
        assertThat(orders.cuHours()).isCloseTo(7.0, within(1e-9));
        assertThat(orders.provisionedCuHours()).isCloseTo(4.0 / 3 + 1 + 2, within(1e-9));
        assertThat(orders.payAsYouGoCuHours()).isCloseTo(2.0 / 3 + 0 + 2, within(1e-9));
        assertThat(report.total().provisionedCuHours()).isCloseTo(5.0, within(1e-9));
        assertThat(report.total().payAsYouGoCuHours()).isCloseTo(3.0, within(1e-9));
        assertThat(report.total().rounds()).isEqualTo(4);
    }

    @Test
    void groupsByDatabaseAndByUtcDay() {
        assertThat(UsageReport.of(H0, H2, UsageGrouping.DATABASE, 0, QUOTA, HOURS).lines())
                .extracting(UsageReport.Line::key, UsageReport.Line::cuHours, UsageReport.Line::payAsYouGoCuHours)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("logs", 1.0, 1.0),
                        org.assertj.core.groups.Tuple.tuple("sales", 7.0, 7.0));
        assertThat(UsageReport.of(H0, H2, UsageGrouping.DAY, 0, QUOTA, HOURS).lines())
                .extracting(UsageReport.Line::key, UsageReport.Line::cuHours)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("2026-11-30", 4.0),
                        org.assertj.core.groups.Tuple.tuple("2026-12-01", 4.0));
        assertThatThrownBy(() -> UsageGrouping.parse("week"))
                .hasMessage("Parameter 'by' must be table, database or day, not 'week'.");
    }

    private static HourlyUsage usage(Instant hour, String database, String table, double cuHours) {
        return new HourlyUsage(hour, database, table, 1, cuHours * 3600, 0, cuHours, 10, 100);
    }
}
