package io.lakesync.usage;

import java.util.Collection;

/**
 * Usage metered on this instance, written to the store as one: {@code key} stays the same however often the write
 * is tried, so the store adds it once.
 */
record UsageBatch(String key, Collection<HourlyUsage> usage) {}
