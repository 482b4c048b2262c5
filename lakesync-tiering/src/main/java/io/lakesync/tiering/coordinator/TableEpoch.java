package io.lakesync.tiering.coordinator;

/** A table id with the tiering epoch under which this instance holds it. */
public record TableEpoch(long tableId, long tieringEpoch) {}
