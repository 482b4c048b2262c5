-- Usage per table and hour (hour_start in epoch milliseconds, UTC), summed over every instance's rounds: what
-- GET /api/v1/usage and `lakesync usage` report. cu_hours is the sum of each round's max(cpu, memory / 4 GiB).
CREATE TABLE table_usage (
    hour_start          BIGINT            NOT NULL,
    database_name       VARCHAR(256)      NOT NULL,
    table_name          VARCHAR(256)      NOT NULL,
    rounds              BIGINT            NOT NULL,
    cpu_seconds         DOUBLE PRECISION  NOT NULL,
    memory_gib_seconds  DOUBLE PRECISION  NOT NULL,
    cu_hours            DOUBLE PRECISION  NOT NULL,
    rows_tiered         BIGINT            NOT NULL,
    bytes_tiered        BIGINT            NOT NULL,
    PRIMARY KEY (hour_start, database_name, table_name)
);
