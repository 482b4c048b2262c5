-- The lakesync service state, version 1. One script for SQLite and PostgreSQL: portable types only, times as
-- epoch milliseconds (BIGINT), and ${autoIncrementKey} expanded to each database's generated key column.

CREATE TABLE notification_channel (
    name        VARCHAR(64)   NOT NULL PRIMARY KEY,
    type        VARCHAR(16)   NOT NULL,
    url         VARCHAR(2048),
    created_at  BIGINT        NOT NULL,
    updated_at  BIGINT        NOT NULL
);

-- Every fresh state can log alerts; rules that name no channel use it.
INSERT INTO notification_channel (name, type, url, created_at, updated_at) VALUES ('log', 'LOG', NULL, 0, 0);

CREATE TABLE alert_rule (
    name         VARCHAR(64)       NOT NULL PRIMARY KEY,
    metric       VARCHAR(64)       NOT NULL,
    comparison   VARCHAR(2)        NOT NULL,
    threshold    DOUBLE PRECISION  NOT NULL,
    window_ms    BIGINT,
    for_ms       BIGINT            NOT NULL,
    table_scope  VARCHAR(512)      NOT NULL,
    severity     VARCHAR(16)       NOT NULL,
    enabled      BOOLEAN           NOT NULL,
    description  VARCHAR(1024)     NOT NULL,
    created_at   BIGINT            NOT NULL,
    updated_at   BIGINT            NOT NULL
);

-- A channel cannot be deleted while a rule still sends to it.
CREATE TABLE alert_rule_channel (
    rule_name     VARCHAR(64)  NOT NULL REFERENCES alert_rule (name) ON DELETE CASCADE,
    channel_name  VARCHAR(64)  NOT NULL REFERENCES notification_channel (name),
    PRIMARY KEY (rule_name, channel_name)
);

-- Alert history. No foreign key to alert_rule: the history outlives a deleted rule. channels are the names the
-- event was sent to, comma-separated; a RESOLVED event goes where its FIRING event went.
CREATE TABLE alert_event (
    id           ${autoIncrementKey},
    rule_name    VARCHAR(64)       NOT NULL,
    table_name   VARCHAR(512)      NOT NULL,
    state        VARCHAR(16)       NOT NULL,
    severity     VARCHAR(16)       NOT NULL,
    metric       VARCHAR(64)       NOT NULL,
    rule_condition  VARCHAR(256)   NOT NULL,
    value        DOUBLE PRECISION,
    at           BIGINT            NOT NULL,
    fired_at     BIGINT            NOT NULL,
    channels     VARCHAR(2048)     NOT NULL,
    message      VARCHAR(2048)     NOT NULL
);
CREATE INDEX alert_event_at ON alert_event (at);

-- Alerts firing now, one row per rule and table: inserting it is what makes a FIRING event happen exactly once,
-- even with several lakesync instances evaluating, and deleting it is what makes the RESOLVED event happen once.
-- The row is claimed before its event exists, so firing_event_id has no foreign key.
CREATE TABLE active_alert (
    rule_name        VARCHAR(64)    NOT NULL,
    table_name       VARCHAR(512)   NOT NULL,
    firing_event_id  BIGINT         NOT NULL,
    PRIMARY KEY (rule_name, table_name)
);

CREATE TABLE notification_delivery (
    id            ${autoIncrementKey},
    event_id      BIGINT         NOT NULL REFERENCES alert_event (id),
    channel_name  VARCHAR(64)    NOT NULL,
    delivered     BOOLEAN        NOT NULL,
    attempts      INTEGER        NOT NULL,
    detail        VARCHAR(2048)  NOT NULL,
    at            BIGINT         NOT NULL
);
CREATE INDEX notification_delivery_event ON notification_delivery (event_id);

-- The cluster-wide service switch: one row (id 1) once somebody has set it.
CREATE TABLE service_switch (
    id          INTEGER        NOT NULL PRIMARY KEY,
    enabled     BOOLEAN        NOT NULL,
    changed_by  VARCHAR(128)   NOT NULL,
    changed_at  BIGINT         NOT NULL,
    reason      VARCHAR(1024)  NOT NULL
);

CREATE TABLE audit_log (
    id      ${autoIncrementKey},
    at      BIGINT          NOT NULL,
    actor   VARCHAR(128)    NOT NULL,
    action  VARCHAR(64)     NOT NULL,
    target  VARCHAR(512)    NOT NULL,
    detail  VARCHAR(4096)   NOT NULL
);
CREATE INDEX audit_log_at ON audit_log (at);
