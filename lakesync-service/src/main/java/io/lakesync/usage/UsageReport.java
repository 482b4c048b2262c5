package io.lakesync.usage;

import io.lakesync.tiering.capacity.CapacityQuotas;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Usage between two hours, grouped, and split into provisioned and pay-as-you-go CU-hours the way the product
 * spec bills it: in each hour the cluster's first {@code provisionedCu} CU-hours are provisioned capacity, the
 * rest pay-as-you-go; every table of that hour gets the same provisioned fraction of its own CU-hours. With it,
 * the CU quotas that cap how many rounds run at the same time.
 */
public record UsageReport(
        Instant from, Instant to, String by, double provisionedCu, CapacityQuotas quota, List<Line> lines, Line total) {

    /** One group's usage. */
    public record Line(
            String key,
            long rounds,
            double cpuSeconds,
            double memoryGibSeconds,
            double cuHours,
            double provisionedCuHours,
            double payAsYouGoCuHours,
            long rowsTiered,
            long bytesTiered) {

        static Line empty(String key) {
            return new Line(key, 0, 0, 0, 0, 0, 0, 0, 0);
        }

        Line plus(HourlyUsage usage, double provisionedFraction) {
            double provisioned = usage.cuHours() * provisionedFraction;
            return new Line(key, rounds + usage.rounds(), cpuSeconds + usage.cpuSeconds(),
                    memoryGibSeconds + usage.memoryGibSeconds(), cuHours + usage.cuHours(),
                    provisionedCuHours + provisioned, payAsYouGoCuHours + usage.cuHours() - provisioned,
                    rowsTiered + usage.rows(), bytesTiered + usage.bytes());
        }
    }

    static UsageReport of(Instant from, Instant to, UsageGrouping by, double provisionedCu, CapacityQuotas quota,
            List<HourlyUsage> hourly) {
        Map<Instant, Double> clusterCuHours = new HashMap<>();
        hourly.forEach(u -> clusterCuHours.merge(u.hour(), u.cuHours(), Double::sum));
        Map<String, Line> lines = new TreeMap<>();
        Line total = Line.empty("total");
        for (HourlyUsage usage : hourly) {
            double used = clusterCuHours.get(usage.hour());
            double provisionedFraction = used <= 0 ? 1 : Math.min(1, provisionedCu / used);
            String key = by.keyOf(usage);
            lines.put(key, lines.getOrDefault(key, Line.empty(key)).plus(usage, provisionedFraction));
            total = total.plus(usage, provisionedFraction);
        }
        return new UsageReport(from, to, by.label(), provisionedCu, quota, new ArrayList<>(lines.values()), total);
    }
}
