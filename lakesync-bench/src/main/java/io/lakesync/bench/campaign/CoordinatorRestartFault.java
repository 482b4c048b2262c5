package io.lakesync.bench.campaign;

import io.lakesync.bench.cluster.FlussNodes;
import java.util.SplittableRandom;

/** The Fluss coordinator stopped and started again on the same address (the fault is the restart itself). */
final class CoordinatorRestartFault implements Fault {

    private final FlussNodes nodes;

    CoordinatorRestartFault(FlussNodes nodes) {
        this.nodes = nodes;
    }

    @Override
    public String name() {
        return "coordinator";
    }

    @Override
    public String description() {
        return "the Fluss coordinator restarted";
    }

    @Override
    public String inject(SplittableRandom random) throws Exception {
        nodes.restartCoordinator();
        return "coordinator restarted";
    }

    @Override
    public void heal() {
        // Restarted in inject.
    }
}
