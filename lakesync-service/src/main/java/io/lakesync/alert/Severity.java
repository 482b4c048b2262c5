package io.lakesync.alert;

/** How urgent a firing alert is; the log channel logs it at INFO, WARN and ERROR respectively. */
public enum Severity {
    INFO,
    WARNING,
    CRITICAL
}
