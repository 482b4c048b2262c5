package io.lakesync.bench.campaign;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Which fault each log row id was written during: the writer writes ids in order (one of each table per step),
 * so each fault covers the ids from its injection to the moment the lake caught up after it.
 */
final class RowWindows {

    private record Window(long endId, KindStats kind) {}

    private final TreeMap<Long, Window> byStart = new TreeMap<>();

    /** Ids {@code [fromId, toId)} were written while a fault of {@code kind} lasted. */
    void add(long fromId, long toId, KindStats kind) {
        if (toId > fromId) {
            byStart.put(fromId, new Window(toId, kind));
        }
    }

    /** The kind whose fault lasted while {@code id} was written, if any. */
    Optional<KindStats> kindOf(long id) {
        Map.Entry<Long, Window> entry = byStart.floorEntry(id);
        return entry != null && id < entry.getValue().endId() ? Optional.of(entry.getValue().kind()) : Optional.empty();
    }
}
