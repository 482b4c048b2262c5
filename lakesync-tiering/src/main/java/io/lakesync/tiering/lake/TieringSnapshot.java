package io.lakesync.tiering.lake;

/**
 * A Paimon snapshot written by Fluss tiering (commit user {@code __fluss_lake_tiering}), with the path of the
 * offsets file its {@code fluss-offsets} property names: the checkpoint the snapshot stands for.
 */
public record TieringSnapshot(long snapshotId, String offsetsPath) {}
