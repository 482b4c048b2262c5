-- The activity batches already applied to table_activity, by the key their writer gave them: a batch written again
-- after a commit that succeeded but reported an error finds its key here and is not applied twice. written_at is the
-- database's time (epoch milliseconds); keys are kept for a week, far longer than a writer retries a batch.
CREATE TABLE activity_batch (
    batch_key   VARCHAR(64)  NOT NULL PRIMARY KEY,
    written_at  BIGINT       NOT NULL
);

CREATE INDEX activity_batch_written_at ON activity_batch (written_at);
