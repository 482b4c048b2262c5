package io.lakesync.bench.campaign;

import io.lakesync.bench.cluster.FlussNodes;
import java.util.SplittableRandom;

/** One Fluss tablet server stopped (its buckets' leaders fail over), started again at heal. */
final class TabletServerFault implements Fault {

    private final FlussNodes nodes;
    private int stopped;

    TabletServerFault(FlussNodes nodes) {
        this.nodes = nodes;
    }

    @Override
    public String name() {
        return "tablet-server";
    }

    @Override
    public String description() {
        return "one Fluss tablet server stopped (leader failover), started again at heal";
    }

    @Override
    public String inject(SplittableRandom random) throws Exception {
        stopped = random.nextInt(nodes.tabletServerCount());
        nodes.stopTabletServer(stopped);
        return "tablet server " + stopped + " stopped";
    }

    @Override
    public void heal() throws Exception {
        if (!nodes.tabletServerRunning(stopped)) {
            nodes.startTabletServer(stopped);
        }
    }
}
