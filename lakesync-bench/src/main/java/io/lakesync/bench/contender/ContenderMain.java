package io.lakesync.bench.contender;

import io.lakesync.bench.data.DataSpec;
import io.lakesync.config.LakeSyncOptions;
import io.lakesync.tiering.round.RoundHooks;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * Entry point of a contender child process: runs one tiering engine or bound and speaks {@link ChildProtocol}
 * on standard output, so that the process's CPU, RSS and heap are the contender's own.
 */
public final class ContenderMain {

    /**
     * Table poll interval of contender A: B's default, so that neither waits longer than the other for a table
     * that falls due (the job's default is 30 s).
     */
    static final Duration A_POLL_INTERVAL = LakeSyncOptions.TIERING_POLL_INTERVAL.defaultValue();
    private static final long FAILURE_CHECK_MILLIS = 500;

    private ContenderMain() {}

    public static void main(String[] argv) {
        ChildProtocol protocol = ChildProtocol.onStandardOutput();
        int exitCode = 0;
        try {
            HeapPeak heap = HeapPeak.start();
            ChildArgs args = ChildArgs.parse(argv);
            Contender contender = Contender.fromLabel(args.require(ChildArgs.CONTENDER));
            Path workDir = Files.createDirectories(Path.of(args.require(ChildArgs.WORK_DIR)));
            BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            if (contender.tiering()) {
                runEngine(engine(contender, args, workDir, protocol), protocol, stdin, heap);
            } else {
                runBound(contender, args, workDir, protocol, stdin, heap);
            }
        } catch (Throwable t) {
            t.printStackTrace();
            protocol.send(ChildProtocol.Type.FAILED, Map.of("message", FlinkTieringEngine.rootMessage(t)));
            exitCode = 1;
        }
        System.err.flush();
        writeFlightRecordings();
        // Engines leave non-daemon threads behind (Flink, Fluss clients); their work is over.
        Runtime.getRuntime().halt(exitCode);
    }

    /** Halting skips JFR's dump on exit: stopping a recording that has a file writes it. */
    private static void writeFlightRecordings() {
        if (!FlightRecorder.isInitialized()) {
            return;
        }
        for (Recording recording : FlightRecorder.getFlightRecorder().getRecordings()) {
            if (recording.getDestination() != null && recording.getState() == RecordingState.RUNNING) {
                recording.stop();
            }
        }
    }

    private static TieringEngine engine(Contender contender, ChildArgs args, Path workDir, ChildProtocol protocol) {
        String bootstrap = args.require(ChildArgs.BOOTSTRAP);
        int cores = Runtime.getRuntime().availableProcessors();
        return switch (contender) {
            case A -> new FlinkTieringEngine(bootstrap, args.lakeOptions(), A_POLL_INTERVAL, cores);
            case A_DEFAULT -> new FlinkTieringEngine(bootstrap, args.lakeOptions(), null, cores);
            case B -> new LakesyncTieringEngine(
                    bootstrap, args.lakeOptions(), workDir, stageReporter(args, protocol), Map.of());
            case B_ROW -> new LakesyncTieringEngine(
                    bootstrap,
                    args.lakeOptions(),
                    workDir,
                    stageReporter(args, protocol),
                    Map.of(LakeSyncOptions.TIERING_COLUMNAR_READ.key(), "false",
                            LakeSyncOptions.TIERING_COLUMNAR_WRITE.key(), "false"));
            case B_ROW_WRITE -> new LakesyncTieringEngine(
                    bootstrap,
                    args.lakeOptions(),
                    workDir,
                    stageReporter(args, protocol),
                    Map.of(LakeSyncOptions.TIERING_COLUMNAR_WRITE.key(), "false"));
            case B_WARM_UP -> new LakesyncTieringEngine(
                    bootstrap,
                    args.lakeOptions(),
                    workDir,
                    stageReporter(args, protocol),
                    Map.of(LakeSyncOptions.TIERING_WARM_UP.key(), "true"));
            default -> throw new IllegalArgumentException(contender.label() + " is not a tiering engine");
        };
    }

    private static RoundHooks stageReporter(ChildArgs args, ChildProtocol protocol) {
        if (!Boolean.parseBoolean(args.values().get(ChildArgs.REPORT_STAGES))) {
            return RoundHooks.NONE;
        }
        return (stage, assignment) -> protocol.send(
                ChildProtocol.Type.STAGE, Map.of("table", assignment.tablePath().toString(), "stage", stage.name()));
    }

    private static Bound bound(Contender contender, ChildArgs args, Path workDir) {
        return switch (contender) {
            case READ_BOUND -> new FlussReadBound(args.require(ChildArgs.BOOTSTRAP), args.tables(), workDir);
            case WRITE_BOUND -> new PaimonWriteBound(
                    args.lakeOptions(), args.tables(), DataSpec.fromArgs(args.values()), workDir);
            case FORMAT_BOUND -> new FormatWriteBound(
                    args.lakeOptions(), args.tables(), DataSpec.fromArgs(args.values()), workDir);
            default -> throw new IllegalArgumentException(contender.label() + " is not a bound");
        };
    }

    private static void runEngine(
            TieringEngine engine, ChildProtocol protocol, BufferedReader stdin, HeapPeak heap) throws Exception {
        try (engine) {
            engine.start();
            protocol.send(ChildProtocol.Type.READY, Map.of());
            Thread watcher = new Thread(() -> watchForFailure(engine, protocol), "bench-failure-watcher");
            watcher.setDaemon(true);
            watcher.start();
            awaitStop(stdin, protocol, heap, engine::stats);
        }
    }

    /**
     * Runs a bound: its warm-up first if it has one (the same bound over the warm-up tables, in this JVM, ended
     * by {@code WARMED}; its data are released before the timed bound prepares), then the timed bound.
     */
    private static void runBound(
            Contender contender,
            ChildArgs args,
            Path workDir,
            ChildProtocol protocol,
            BufferedReader stdin,
            HeapPeak heap)
            throws Exception {
        Optional<ChildArgs> warmUpArgs = args.warmUp();
        if (warmUpArgs.isPresent()) {
            try (Bound warmUp = bound(contender, warmUpArgs.get(), workDir.resolve("warm-up"))) {
                warmUp.prepare();
                protocol.send(ChildProtocol.Type.READY, Map.of());
                warmUp.run();
            }
        }
        try (Bound bound = bound(contender, args, workDir)) {
            bound.prepare();
            protocol.send(warmUpArgs.isPresent() ? ChildProtocol.Type.WARMED : ChildProtocol.Type.READY, Map.of());
            Map<String, Object> figures = new LinkedHashMap<>(bound.run());
            protocol.send(ChildProtocol.Type.DONE, figures);
            awaitStop(stdin, protocol, heap, Map::of);
        }
    }

    private static void watchForFailure(TieringEngine engine, ChildProtocol protocol) {
        while (true) {
            Optional<String> failure = engine.failure();
            if (failure.isPresent()) {
                protocol.send(ChildProtocol.Type.FAILED, Map.of("message", failure.get()));
                return;
            }
            try {
                Thread.sleep(FAILURE_CHECK_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Blocks until the driver says {@value ChildProtocol#STOP} or goes away (end of input), then reports the
     * peak heap and the contender's own figures, before the contender shuts down.
     */
    private static void awaitStop(
            BufferedReader stdin, ChildProtocol protocol, HeapPeak heap, Supplier<Map<String, Object>> figures)
            throws Exception {
        ChildProtocol.awaitStop(stdin);
        Map<String, Object> stats = new LinkedHashMap<>(figures.get());
        stats.put("peakHeapBytes", heap.peakBytes());
        protocol.send(ChildProtocol.Type.STATS, stats);
    }
}
