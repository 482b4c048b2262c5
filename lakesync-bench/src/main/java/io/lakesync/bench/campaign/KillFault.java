package io.lakesync.bench.campaign;

import java.util.SplittableRandom;

/** SIGKILL of one lakesync instance; healed by starting it again (with the clock it had). */
final class KillFault implements Fault {

    private final ServiceInstances instances;
    private int killed;

    KillFault(ServiceInstances instances) {
        this.instances = instances;
    }

    @Override
    public String name() {
        return "kill";
    }

    @Override
    public String description() {
        return "SIGKILL of one lakesync instance, started again at heal";
    }

    @Override
    public String inject(SplittableRandom random) throws Exception {
        killed = random.nextInt(instances.count());
        instances.kill(killed);
        return "killed instance " + killed;
    }

    @Override
    public void heal() throws Exception {
        instances.relaunch(killed);
    }
}
