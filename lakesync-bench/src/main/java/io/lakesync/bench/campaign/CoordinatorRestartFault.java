package io.lakesync.bench.campaign;

import io.lakesync.bench.cluster.FlussNodes;
import io.lakesync.bench.soak.SoakWriter;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * The Fluss coordinator stopped and started again on the same address (the fault is the restart itself). The
 * campaign's writer pauses meanwhile: Fluss 0.9.1's writer fails a write whose metadata refresh meets the
 * restarting coordinator, and a producer's failed write is not the service's to survive; what was written before
 * is still being tiered while the coordinator is away.
 */
final class CoordinatorRestartFault implements Fault {

    private final FlussNodes nodes;
    private final Supplier<SoakWriter> writer;

    CoordinatorRestartFault(FlussNodes nodes, Supplier<SoakWriter> writer) {
        this.nodes = nodes;
        this.writer = writer;
    }

    @Override
    public String name() {
        return "coordinator";
    }

    @Override
    public String description() {
        return "the Fluss coordinator restarted (the writer paused meanwhile)";
    }

    @Override
    public String inject(SplittableRandom random) throws Exception {
        SoakWriter writes = writer.get();
        writes.pause();
        try {
            nodes.restartCoordinator();
        } finally {
            writes.resume();
        }
        return "coordinator restarted";
    }

    @Override
    public void heal() {
        // Restarted in inject.
    }
}
