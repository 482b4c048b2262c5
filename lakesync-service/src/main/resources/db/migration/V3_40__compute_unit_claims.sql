-- The compute units (CUs) that running rounds hold, claimed by every instance in one ledger so that the CU quotas
-- ('quota.cluster-cu', 'quota.database-cu') hold for the cluster, not per instance (io.lakesync.cluster
-- .SharedClaimLedger). One row per running round, inserted before it starts and deleted when it ends; the rows
-- of an instance dead for longer than 'cluster.instance-timeout', or stopped, are reclaimed by the next claim.
-- claimed_at is the database's time (epoch milliseconds).
CREATE TABLE compute_unit_claim (
    id             ${autoIncrementKey},
    instance_id    VARCHAR(128)  NOT NULL,
    table_name     VARCHAR(512)  NOT NULL,
    database_name  VARCHAR(256)  NOT NULL,
    claimed_at     BIGINT        NOT NULL
);

CREATE INDEX compute_unit_claim_instance ON compute_unit_claim (instance_id);

-- The one row every claim locks first, so that claims of all instances count and insert one after another and
-- two instances never both take the last free CU.
CREATE TABLE compute_unit_ledger (
    name  VARCHAR(32)  NOT NULL PRIMARY KEY
);

INSERT INTO compute_unit_ledger (name) VALUES ('claims');
