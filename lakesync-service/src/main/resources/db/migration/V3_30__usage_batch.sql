-- The usage batches already added to table_usage, by the key their meter gave them: a batch written again after a
-- commit that succeeded but reported an error finds its key here and is not added twice. written_at is the
-- database's time (epoch milliseconds); keys are kept for a week, far longer than a meter retries a batch.
CREATE TABLE usage_batch (
    batch_key   VARCHAR(64)  NOT NULL PRIMARY KEY,
    written_at  BIGINT       NOT NULL
);

CREATE INDEX usage_batch_written_at ON usage_batch (written_at);
