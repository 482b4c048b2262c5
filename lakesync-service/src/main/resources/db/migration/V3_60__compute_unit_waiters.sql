-- The rounds that asked for a CU and were refused, in the order they first asked, so that a CU that frees goes to
-- the round that waited longest, whichever instance it runs on (io.lakesync.cluster.SharedClaimLedger). A row is
-- deleted when its round is granted a CU, or once its instance has not asked again for a while (the table left,
-- or the instance died). Both times are the database's (epoch milliseconds).
CREATE TABLE compute_unit_waiter (
    instance_id    VARCHAR(128)  NOT NULL,
    table_name     VARCHAR(512)  NOT NULL,
    database_name  VARCHAR(256)  NOT NULL,
    waiting_since  BIGINT        NOT NULL,
    asked_at       BIGINT        NOT NULL,
    PRIMARY KEY (instance_id, table_name)
);
