package io.lakesync.bench.campaign;

import java.time.Duration;
import java.util.SplittableRandom;

/** Every chunk between the instances and the Fluss servers held 20 to 500 ms each way, until heal. */
final class NetworkDelayFault implements Fault {

    private final FlussProxies network;

    NetworkDelayFault(FlussProxies network) {
        this.network = network;
    }

    @Override
    public String name() {
        return "net-delay";
    }

    @Override
    public String description() {
        return "lakesync ↔ Fluss traffic (every server) delayed 20 to 500 ms per chunk each way by the proxies";
    }

    @Override
    public String inject(SplittableRandom random) {
        Duration delay = Duration.ofMillis(20 + random.nextInt(481));
        network.delay(delay);
        return "lakesync ↔ Fluss delayed " + delay.toMillis() + " ms";
    }

    @Override
    public void heal() {
        network.heal();
    }
}
