package io.lakesync.fluss.tiering;

/** A table id with the tiering epoch under which this instance holds it. */
public record TableEpoch(long tableId, long tieringEpoch) {}
