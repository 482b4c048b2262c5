package io.lakesync.bench.campaign;

import io.lakesync.local.S3Faults;
import java.time.Duration;
import java.util.SplittableRandom;

/** Every request to the lake's S3 server waits 100 to 1,000 ms first, until heal. */
final class LakeSlowFault implements Fault {

    private final S3Faults s3;

    LakeSlowFault(S3Faults s3) {
        this.s3 = s3;
    }

    @Override
    public String name() {
        return "lake-slow";
    }

    @Override
    public String description() {
        return "every request to the lake's S3 server held 100 to 1,000 ms";
    }

    @Override
    public String inject(SplittableRandom random) {
        Duration delay = Duration.ofMillis(100 + random.nextInt(901));
        s3.slow(delay);
        return "S3 requests held " + delay.toMillis() + " ms";
    }

    @Override
    public void heal() {
        s3.heal();
    }
}
