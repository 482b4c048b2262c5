package io.lakesync.tiering.columnar.write;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.format.SimpleColStats;
import org.apache.paimon.shade.org.apache.parquet.column.statistics.BinaryStatistics;
import org.apache.paimon.shade.org.apache.parquet.column.statistics.Statistics;
import org.apache.paimon.statistics.SimpleColStatsCollector;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeChecks;
import org.apache.paimon.types.DecimalType;

/**
 * A Parquet column's statistics as the {@link SimpleColStats} Paimon records in a data file's metadata: the
 * values Paimon's Parquet statistics extractor would read from the file's footer, then shaped by the table's
 * {@code metadata.stats-mode} (its collector's {@code convert}, which truncates or drops them).
 */
final class ColumnStatistics {

    /** Parquet's footer keeps no min/max for a column whose min and max together take this many bytes or more. */
    private static final int MAX_FOOTER_STATS_BYTES = 4096;

    private ColumnStatistics() {}

    static SimpleColStats toPaimon(DataType type, Statistics<?> stats, SimpleColStatsCollector mode) {
        long nulls = stats.getNumNulls();
        if (!stats.hasNonNullValue() || tooLargeForFooter(stats)) {
            return mode.convert(new SimpleColStats(null, null, nulls));
        }
        Object min = stats.genericGetMin();
        Object max = stats.genericGetMax();
        SimpleColStats paimon = switch (type.getTypeRoot()) {
            case CHAR, VARCHAR -> new SimpleColStats(
                    BinaryString.fromString(((BinaryStatistics) stats).minAsString()),
                    BinaryString.fromString(((BinaryStatistics) stats).maxAsString()),
                    nulls);
            case BOOLEAN, BIGINT -> new SimpleColStats(min, max, nulls);
            case FLOAT -> floating(((Float) min).doubleValue(), ((Float) max).doubleValue(), nulls, true);
            case DOUBLE -> floating((Double) min, (Double) max, nulls, false);
            case TINYINT -> new SimpleColStats((byte) (int) (Integer) min, (byte) (int) (Integer) max, nulls);
            case SMALLINT -> new SimpleColStats((short) (int) (Integer) min, (short) (int) (Integer) max, nulls);
            case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE -> new SimpleColStats(min, max, nulls);
            case DECIMAL -> new SimpleColStats(decimal((DecimalType) type, min), decimal((DecimalType) type, max), nulls);
            case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> DataTypeChecks.getPrecision(type) <= 3
                    ? new SimpleColStats(Timestamp.fromEpochMillis((Long) min), Timestamp.fromEpochMillis((Long) max), nulls)
                    : new SimpleColStats(Timestamp.fromMicros((Long) min), Timestamp.fromMicros((Long) max), nulls);
            default -> new SimpleColStats(null, null, nulls);
        };
        return mode.convert(paimon);
    }

    /**
     * Floating-point bounds as Parquet's reader hands them out of a footer: none when one is NaN, and a zero
     * bound widened to both zeros (min -0.0, max +0.0).
     */
    private static SimpleColStats floating(double min, double max, long nulls, boolean single) {
        if (Double.isNaN(min) || Double.isNaN(max)) {
            return new SimpleColStats(null, null, nulls);
        }
        double low = Double.compare(min, 0.0) == 0 ? -0.0 : min;
        double high = Double.compare(max, -0.0) == 0 ? 0.0 : max;
        return single
                ? new SimpleColStats((float) low, (float) high, nulls)
                : new SimpleColStats(low, high, nulls);
    }

    private static boolean tooLargeForFooter(Statistics<?> stats) {
        return stats instanceof BinaryStatistics binary
                && binary.getMinBytes().length + binary.getMaxBytes().length >= MAX_FOOTER_STATS_BYTES;
    }

    private static Decimal decimal(DecimalType type, Object unscaled) {
        int precision = type.getPrecision();
        int scale = type.getScale();
        if (unscaled instanceof Number number) {
            return Decimal.fromUnscaledLong(number.longValue(), precision, scale);
        }
        byte[] bytes = ((org.apache.paimon.shade.org.apache.parquet.io.api.Binary) unscaled).getBytes();
        return Decimal.fromBigDecimal(new BigDecimal(new BigInteger(bytes), scale), precision, scale);
    }
}
