package io.lakesync.usage;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** How {@code GET /api/v1/usage} groups the hourly rows: by table, by database or by day (UTC). */
enum UsageGrouping {
    TABLE,
    DATABASE,
    DAY;

    private static final DateTimeFormatter DAY_FORMAT = DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC);

    String keyOf(HourlyUsage usage) {
        return switch (this) {
            case TABLE -> usage.database() + "." + usage.table();
            case DATABASE -> usage.database();
            case DAY -> DAY_FORMAT.format(usage.hour());
        };
    }

    static UsageGrouping parse(String value) {
        for (UsageGrouping grouping : values()) {
            if (grouping.name().equalsIgnoreCase(value)) {
                return grouping;
            }
        }
        throw new IllegalArgumentException("Parameter 'by' must be table, database or day, not '" + value + "'.");
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
