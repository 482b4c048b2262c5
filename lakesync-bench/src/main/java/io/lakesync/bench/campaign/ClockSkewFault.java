package io.lakesync.bench.campaign;

import java.time.Duration;
import java.util.SplittableRandom;

/**
 * One instance restarted with its clock minutes off (ahead or behind), so that the instances disagree on the
 * time; healed by restarting it with the true clock (a kill meanwhile restarts it with the skew it has).
 */
final class ClockSkewFault implements Fault {

    static final int MAX_SKEW_MINUTES = 10;

    private final ServiceInstances instances;
    private int skewed;

    ClockSkewFault(ServiceInstances instances) {
        this.instances = instances;
    }

    @Override
    public String name() {
        return "clock-skew";
    }

    @Override
    public String description() {
        return "one instance restarted with its clock 1 to " + MAX_SKEW_MINUTES + " minutes ahead or behind, restarted "
                + "with the true clock at heal";
    }

    @Override
    public String inject(SplittableRandom random) throws Exception {
        int instance = random.nextInt(instances.count());
        skewed = instance;
        long minutes = 1 + random.nextInt(MAX_SKEW_MINUTES);
        Duration offset = Duration.ofMinutes(random.nextBoolean() ? minutes : -minutes);
        instances.kill(instance);
        instances.launch(instance, offset);
        return "instance " + instance + " clock " + (offset.isNegative() ? "" : "+") + offset.toMinutes() + " min";
    }

    @Override
    public void heal() throws Exception {
        instances.kill(skewed);
        instances.launch(skewed, Duration.ZERO);
    }
}
