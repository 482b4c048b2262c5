package io.lakesync.bench.campaign;

import java.util.ArrayList;
import java.util.List;

/**
 * What one fault kind did in a campaign: faults injected and survived (the lake caught up within the timeout and
 * no instance stopped by itself), how long after heal the lake covered what was written before the fault, and
 * the rows of the log tables written while its faults lasted (inject to caught up) with what the check found
 * wrong with them.
 */
final class KindStats {

    final String name;
    final String description;
    int injected;
    int survived;
    /** Instances that stopped by themselves during this kind's faults. */
    int exits;
    /** Faults after which the lake did not catch up until every instance was restarted. */
    int stalls;
    int statusLies;
    final List<Long> catchUpMillis = new ArrayList<>();
    long rowsChecked;
    long lost;
    long duplicated;
    long mismatched;

    KindStats(String name, String description) {
        this.name = name;
        this.description = description;
    }

    boolean clean() {
        return survived == injected && exits == 0 && stalls == 0 && statusLies == 0 && lost == 0 && duplicated == 0 && mismatched == 0;
    }
}
