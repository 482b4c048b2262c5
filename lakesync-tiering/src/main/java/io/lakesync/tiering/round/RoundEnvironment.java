package io.lakesync.tiering.round;

import io.lakesync.fluss.FlussClient;
import io.lakesync.fluss.tiering.TieringCoordinator;
import io.lakesync.tiering.lake.LakeTables;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.function.IntSupplier;

/** What every round of one service shares: the Fluss client, the lake catalog, threads and settings. */
public record RoundEnvironment(
        FlussClient fluss,
        TieringCoordinator coordinator,
        IntSupplier coordinatorEpoch,
        LakeTables lakeTables,
        ExecutorService readerThreads,
        int bucketParallelism,
        Duration idleReadTimeout,
        boolean columnarRead,
        boolean columnarWrite,
        boolean columnarWritePrimaryKey,
        Path ioTmpDir,
        Clock clock,
        RoundHooks hooks) {}
