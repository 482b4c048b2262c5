package io.lakesync.tiering.round;

import io.lakesync.fluss.TableInfos;
import io.lakesync.fluss.tiering.TieringCoordinator;
import io.lakesync.tiering.lake.LakeTables;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.function.IntSupplier;
import org.apache.fluss.client.Connection;

/** What every round of one service shares: connections, the lake catalog, threads and settings. */
public record RoundEnvironment(
        Connection connection,
        TableInfos tableInfos,
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
