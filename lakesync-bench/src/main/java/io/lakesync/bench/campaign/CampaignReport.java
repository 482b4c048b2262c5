package io.lakesync.bench.campaign;

import io.lakesync.bench.measure.Durations;
import io.lakesync.bench.soak.TableCheck;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/** The campaign's result as Markdown: the verdict, one line per fault kind, one per table, what each kind does. */
final class CampaignReport {

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    private CampaignReport() {}

    static String render(CampaignResult r) {
        CampaignSettings s = r.settings();
        StringBuilder out = new StringBuilder();
        out.append(String.format("lakesync fault campaign, %s, %d min: %,d faults of %d kinds (seed %d), %d instance(s) "
                        + "on a shared PostgreSQL state, freshness %s, %,d rows/s per table, %d buckets, faults held "
                        + "%s to %s%n%n",
                WHEN.format(r.startedAt()), r.duration().toMinutes(), r.injected(), r.kinds().size(), s.seed(),
                s.instances(), Durations.text(s.freshness()), s.rowsPerSecond(), s.buckets(), Durations.text(s.minHold()),
                Durations.text(s.maxHold())));
        out.append("| fault kind | injected | survived | rows checked | lost | duplicated | mismatched | caught up after "
                + "heal p50 / p90 / max | status lies |\n");
        out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |\n");
        List<KindStats> rows = new ArrayList<>(r.kinds());
        rows.add(r.betweenFaults());
        for (KindStats k : rows) {
            boolean between = k == r.betweenFaults();
            out.append(String.format("| %s | %s | %s | %,d | %d | %d | %d | %s | %d |%n", k.name,
                    between ? "–" : Integer.toString(k.injected),
                    between ? "–" : k.survived + notes(k),
                    k.rowsChecked, k.lost, k.duplicated, k.mismatched, Durations.spread(k.catchUpMillis), k.statusLies));
        }
        out.append(String.format("| **all** | %,d | %,d | %,d | %d | %d | %d | final catch-up %s | %d |%n%n",
                r.injected(), r.kinds().stream().mapToInt(k -> k.survived).sum(), r.total(TableCheck::checked),
                r.total(TableCheck::lost), r.total(TableCheck::duplicated), r.total(TableCheck::mismatched),
                r.finalCatchUp() == null ? "NOT within " + Durations.text(s.finalTimeout())
                        : String.format("%.1f s", r.finalCatchUp().toMillis() / 1000.0),
                rows.stream().mapToInt(k -> k.statusLies).sum()));
        out.append("Result: ").append(r.passed() ? "PASS" : "FAIL").append("\n\n");
        if (r.endedEarly() != null) {
            out.append("Ended early: ").append(r.endedEarly()).append(".\n\n");
        }
        out.append("| table | kind | written | rows checked | lost | duplicated | mismatched |\n");
        out.append("| --- | --- | --- | ---: | ---: | ---: | ---: |\n");
        for (TableCheck c : r.checks()) {
            out.append(String.format("| %s | %s | %s | %,d | %d | %d | %d |%n",
                    c.table(), c.kind(), c.written(), c.checked(), c.lost(), c.duplicated(), c.mismatched()));
        }
        out.append("\nRows checked per kind: the rows of the two log tables written from a fault's injection until the "
                + "lake caught up after it (the primary-key table counts in the total). Survived: caught up within "
                + Durations.text(s.catchUpTimeout()) + " after heal, no running instance stopped by itself. A stall (not "
                + "caught up in that time) is repaired by restarting every instance, and the campaign goes on.\n\n");
        for (KindStats k : r.kinds()) {
            out.append("- ").append(k.name).append(": ").append(k.description).append('\n');
        }
        for (String skipped : r.skipped()) {
            out.append("- not injected: ").append(skipped).append('\n');
        }
        return out.toString();
    }

    /** Why faults did not count as survived: " (1 stall, 2 instance exits)", or nothing. */
    private static String notes(KindStats k) {
        List<String> notes = new ArrayList<>();
        if (k.stalls > 0) {
            notes.add(k.stalls + (k.stalls == 1 ? " stall" : " stalls"));
        }
        if (k.exits > 0) {
            notes.add(k.exits + (k.exits == 1 ? " instance exit" : " instance exits"));
        }
        return notes.isEmpty() ? "" : " (" + String.join(", ", notes) + ")";
    }
}
