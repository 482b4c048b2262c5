package io.lakesync.migrate;

import java.util.Map;

/**
 * How the Flink tiering jobs stopped, as far as Flink showed it.
 *
 * @param atMillis when: the jobs' end time in Flink, or when Flink's endpoint was first found gone
 * @param how what Flink showed
 * @param epochsBefore each lake-enabled table's tiering epoch (by table id) before the jobs were stopped
 */
record JobsStopped(long atMillis, How how, Map<Long, Long> epochsBefore) {

    enum How {
        /** Flink showed every job ended: none can still hold a table. */
        ENDED_IN_FLINK,
        /** The cancel was accepted, then the endpoint went away: an application or per-job cluster shut down. */
        CLUSTER_SHUT_DOWN,
        /** No endpoint answered from the start of this run (--flink-gone): when the jobs stopped is unknown. */
        ALREADY_GONE
    }

    boolean endedInFlink() {
        return how == How.ENDED_IN_FLINK;
    }

    /** Whether atMillis is when the jobs stopped, so a take-over time can be measured from it. */
    boolean stopTimeKnown() {
        return how != How.ALREADY_GONE;
    }
}
