package io.lakesync.bench.campaign;

import io.lakesync.local.S3Faults;
import java.util.SplittableRandom;

/** Every request to the lake's S3 server fails with a 500 until heal. */
final class LakeErrorsFault implements Fault {

    private final S3Faults s3;

    LakeErrorsFault(S3Faults s3) {
        this.s3 = s3;
    }

    @Override
    public String name() {
        return "lake-errors";
    }

    @Override
    public String description() {
        return "every request to the lake's S3 server answered 500 Internal Server Error";
    }

    @Override
    public String inject(SplittableRandom random) {
        s3.fail();
        return "S3 requests fail";
    }

    @Override
    public void heal() {
        s3.heal();
    }
}
