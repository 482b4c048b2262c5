package io.lakesync.bench.campaign;

import java.util.SplittableRandom;

/** Every connection between the instances and the Fluss servers closed, and new ones refused, until heal. */
final class NetworkCutFault implements Fault {

    private final FlussProxies network;

    NetworkCutFault(FlussProxies network) {
        this.network = network;
    }

    @Override
    public String name() {
        return "net-cut";
    }

    @Override
    public String description() {
        return "lakesync ↔ Fluss connections (every server) closed by the proxies, new ones closed at once";
    }

    @Override
    public String inject(SplittableRandom random) {
        network.cut();
        return "lakesync ↔ Fluss cut";
    }

    @Override
    public void heal() {
        network.heal();
    }
}
