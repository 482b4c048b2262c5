package io.lakesync.status;

/**
 * The sync state of one lake-enabled Fluss table, as a user sees it. Derived anew from what the cluster and
 * the engine report, in this order of precedence (the first that holds wins):
 *
 * <pre>
 *   DISABLED ──── table.datalake.enabled = false (or the service switch is off)
 *   BLOCKED ───── the last round failed on something only the user can fix; rechecked now and then
 *   RETRYING ──── the last round failed on something transient; retried with backoff
 *   INITIALIZING  enabled, but nothing in the lake yet (first round pending or running)
 *   LAGGING ───── sync latency above the table's freshness
 *   SYNCING ───── a round of this instance is writing it right now
 *   UP_TO_DATE ── within freshness (and nothing pending, or pending data younger than freshness)
 *
 *   UNKNOWN ───── records are pending and the time of the oldest cannot be read (its latency is unknown), or
 *                 lakesync could not observe the table (Fluss or the lake did not answer) for longer than
 *                 'status.unknown-after-refreshes' refresh intervals; until then the last state is kept with its
 *                 figures marked stale, except that a table last seen UP_TO_DATE or SYNCING is UNKNOWN at once
 *                 (being up to date is never claimed without an observation)
 *
 *        enable            first commit             round ends
 *   DISABLED ──► INITIALIZING ───────► SYNCING ◄──────────► UP_TO_DATE
 *       ▲             │                  │  ▲                  │
 *       │ disable     │ failure          │  │ success          │ latency > freshness
 *       └─────────── RETRYING / BLOCKED ◄┘  └──── LAGGING ◄────┘
 * </pre>
 */
public enum TableState {
    DISABLED("Lake sync is off for this table.", "Enable it with ALTER TABLE ... SET ('table.datalake.enabled' = 'true') or 'lakesync tables enable'."),
    BLOCKED("Sync stopped on a problem lakesync cannot fix by retrying.", "Fix the cause named in the reason; lakesync checks again on its own."),
    RETRYING("The last sync round failed; retrying with backoff.", "Nothing, unless it keeps failing: then check the reason."),
    INITIALIZING("Enabled; the first sync round has not committed yet.", "Nothing: the first round runs one freshness interval after enabling."),
    LAGGING("The lake is further behind than the table's freshness allows.", "Check throughput and the number of lakesync instances and workers."),
    SYNCING("A sync round is writing this table now.", "Nothing."),
    UP_TO_DATE("The lake is within the table's freshness.", "Nothing."),
    UNKNOWN("lakesync cannot observe this table (Fluss or the lake does not answer; the figures shown are the last known) "
            + "or its sync latency (records are pending and the time of the oldest cannot be read).",
            "Check that lakesync can reach the Fluss cluster and the lake (see the reason); the state returns on its own once it can.");

    private final String meaning;
    private final String action;

    TableState(String meaning, String action) {
        this.meaning = meaning;
        this.action = action;
    }

    public String meaning() {
        return meaning;
    }

    /** What the user should do about it. */
    public String action() {
        return action;
    }
}
