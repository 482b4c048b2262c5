package io.lakesync.catalog;

/** One prerequisite check: its name, whether it passed, and what it found. */
public record CheckResult(String name, boolean passed, String detail) {}
