package io.lakesync.bench.soak;

import io.lakesync.tiering.round.RoundStage;
import java.time.Duration;
import java.util.SplittableRandom;
import javax.annotation.Nullable;

/**
 * When each kill lands, drawn from a seeded random stream so that a soak can be replayed. Most kills wait
 * until the restarted service has caught up (so its restart-to-caught-up time is measured), then strike either
 * at a random moment or just after a round reported a stage (to hit the short commit windows, which a uniform
 * delay would almost never hit); some strike during recovery, before the service caught up.
 */
final class KillPlan {

    /** How a kill is aimed. */
    enum Aim {
        RANDOM("at a random moment", null, 0),
        READING("while a round reads and writes (planned + up to 500 ms)", RoundStage.PLANNED, 500),
        PAIMON_COMMIT("around the Paimon commit (files written + up to 50 ms)", RoundStage.DATA_WRITTEN, 50),
        BETWEEN_COMMITS("between the Paimon and the coordinator commit (+ up to 5 ms)", RoundStage.LAKE_COMMITTED, 5),
        RECOVERING("during recovery, before the restarted service caught up", null, 0);

        final String description;
        /** The stage reported just before the kill, for aimed kills. */
        @Nullable final RoundStage stage;
        final long maxDelayMillis;

        Aim(String description, @Nullable RoundStage stage, long maxDelayMillis) {
            this.description = description;
            this.stage = stage;
            this.maxDelayMillis = maxDelayMillis;
        }
    }

    /** One kill: how it is aimed and the delay after its trigger (caught up, the stage, or the restart). */
    record Kill(Aim aim, Duration delay) {}

    /** Percent of kills per aim, in the order of {@link Aim}. */
    private static final int[] PERCENT = {30, 20, 20, 20, 10};
    /** Recovery kills strike this long after the restart at most. */
    private static final long MAX_RECOVERY_DELAY_MILLIS = 4_000;

    private final SplittableRandom random;
    private final Duration maxGap;

    KillPlan(long seed, Duration maxGap) {
        this.random = new SplittableRandom(seed);
        this.maxGap = maxGap;
    }

    Kill next() {
        int dice = random.nextInt(100);
        Aim aim = Aim.values()[Aim.values().length - 1];
        for (int i = 0, sum = 0; i < PERCENT.length; i++) {
            sum += PERCENT[i];
            if (dice < sum) {
                aim = Aim.values()[i];
                break;
            }
        }
        long maxDelay = switch (aim) {
            case RANDOM -> maxGap.toMillis();
            case RECOVERING -> MAX_RECOVERY_DELAY_MILLIS;
            default -> aim.maxDelayMillis;
        };
        return new Kill(aim, Duration.ofMillis(random.nextLong(maxDelay + 1)));
    }
}
