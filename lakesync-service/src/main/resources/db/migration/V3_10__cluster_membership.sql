-- Several instances on one state (io.lakesync.cluster). Times are epoch milliseconds, as everywhere.

-- Every instance that ever ran on this state, one row each, refreshed by its heartbeat; an instance whose
-- heartbeat is older than 'cluster.instance-timeout' is listed as dead. stopped_at is set on a clean stop.
-- held_epochs are the tables held as tableId:tieringEpoch, so that the leader can hand a dead instance's tables
-- back to the Fluss coordinator at once instead of after the coordinator's 2-minute timeout.
CREATE TABLE lakesync_instance (
    id            VARCHAR(128)   NOT NULL PRIMARY KEY,
    host          VARCHAR(256)   NOT NULL,
    url           VARCHAR(512)   NOT NULL,
    version       VARCHAR(64)    NOT NULL,
    started_at    BIGINT         NOT NULL,
    heartbeat_at  BIGINT         NOT NULL,
    stopped_at    BIGINT,
    tables_held   VARCHAR(8192)  NOT NULL,
    held_epochs   VARCHAR(8192)  NOT NULL,
    capacity      INTEGER        NOT NULL
);

-- Once-per-cluster duties (alert evaluation): one row per duty, held by one instance until expires_at; the holder
-- renews it with every heartbeat, and any instance may take it over once it expired.
CREATE TABLE cluster_lease (
    name        VARCHAR(64)    NOT NULL PRIMARY KEY,
    holder      VARCHAR(128)   NOT NULL,
    expires_at  BIGINT         NOT NULL,
    acquired_at BIGINT         NOT NULL
);

-- One truth per table: what the engines of all instances did with it (totals carry over when the table moves to
-- another instance), written by the instance that ran the round, read by every instance's status.
CREATE TABLE table_activity (
    table_name               VARCHAR(512)    NOT NULL PRIMARY KEY,
    holder                   VARCHAR(128),
    syncing                  BOOLEAN         NOT NULL,
    consecutive_failures     INTEGER         NOT NULL,
    last_failure_kind        VARCHAR(32),
    last_error               VARCHAR(4096),
    next_retry_at            BIGINT,
    rounds                   BIGINT          NOT NULL,
    failures                 BIGINT          NOT NULL,
    rows_tiered              BIGINT          NOT NULL,
    bytes_tiered             BIGINT          NOT NULL,
    files_written            BIGINT          NOT NULL,
    last_round_ms            BIGINT,
    last_round_ended_at      BIGINT,
    last_round_rows_per_sec  DOUBLE PRECISION NOT NULL,
    updated_at               BIGINT          NOT NULL
);
