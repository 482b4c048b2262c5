package io.lakesync.bench.soak;

import io.lakesync.bench.measure.Durations;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The soak's result as Markdown: the verdict, one line per table, where the kills landed. */
final class SoakReport {

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    private SoakReport() {}

    static String render(SoakResult r) {
        SoakSettings s = r.settings();
        StringBuilder out = new StringBuilder();
        out.append(String.format("lakesync soak, %s, %d min: %d kills (seed %d), freshness %s, %,d rows/s per table, "
                        + "%d buckets, a new partition every %s%n%n",
                WHEN.format(r.startedAt()), r.duration().toMinutes(), s.kills(), s.seed(), Durations.text(s.freshness()),
                s.rowsPerSecond(), s.buckets(), Durations.text(s.partitionEvery())));
        out.append("| kills survived | rows checked | lost | duplicated | mismatched | restart → caught up p50 / p90 / max "
                + "(restarts measured) | stalls | final catch-up | result |\n");
        out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        out.append(String.format("| %d of %d | %,d | %d | %d | %d | %s | %d | %s | %s |%n%n",
                r.kills(), s.kills(), r.total(TableCheck::checked), r.total(TableCheck::lost),
                r.total(TableCheck::duplicated), r.total(TableCheck::mismatched), catchUp(r.catchUpMillis()), r.stalls(),
                r.finalCatchUp() == null ? "NOT within " + Durations.text(s.finalTimeout())
                        : String.format("%.1f s", r.finalCatchUp().toMillis() / 1000.0),
                r.passed() ? "PASS" : "FAIL"));
        out.append("| table | kind | written | rows checked | lost | duplicated | mismatched |\n");
        out.append("| --- | --- | --- | --- | --- | --- | --- |\n");
        for (TableCheck c : r.checks()) {
            out.append(String.format("| %s | %s | %s | %,d | %d | %d | %d |%n",
                    c.table(), c.kind(), c.written(), c.checked(), c.lost(), c.duplicated(), c.mismatched()));
        }
        out.append("\nKills by aim: ").append(counts(r.aims(), a -> a.description)).append('\n');
        if (r.aimsMissed() > 0) {
            out.append("Aimed kills whose stage did not come within a minute (struck anyway): ")
                    .append(r.aimsMissed()).append('\n');
        }
        if (r.failedLakeSnapshotReads() > 0) {
            out.append("Coordinator lake-snapshot reads that failed and were read again (Fluss 0.9.1 deletes the previous "
                    + "offsets file while it may still be read): ").append(r.failedLakeSnapshotReads()).append('\n');
        }
        out.append("Where each table's round was at the kills (")
                .append(r.kills()).append(" kills × ").append(r.checks().size()).append(" tables): ")
                .append(counts(r.positions(), p -> p.description)).append('\n');
        return out.toString();
    }

    private static String catchUp(List<Long> millis) {
        return millis.isEmpty() ? "–" : Durations.spread(millis) + " (" + millis.size() + ")";
    }

    private static <K> String counts(Map<K, Integer> counts, java.util.function.Function<K, String> label) {
        return counts.entrySet().stream()
                .map(e -> e.getValue() + " " + label.apply(e.getKey()))
                .collect(Collectors.joining(", "));
    }
}
