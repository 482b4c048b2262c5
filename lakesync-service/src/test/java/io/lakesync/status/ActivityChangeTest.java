package io.lakesync.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.tiering.FailureKind;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Merged changes of a table are what its events, applied one after another, make of its activity. */
class ActivityChangeTest {

    private static final Instant T0 = Instant.parse("2026-12-06T10:00:00Z");

    @Test
    void anyRunOfEventsMergedIntoOneChangeEqualsTheEventsAppliedInTurn() {
        Random random = new Random(42);
        EngineActivity before = ActivityChange.failed(FailureKind.TRANSIENT, "earlier", T0)
                .applyTo(EngineActivity.NONE, "other");
        for (int run = 0; run < 500; run++) {
            List<ActivityChange> events = random.ints(1 + random.nextInt(8), 0, 5)
                    .mapToObj(kind -> event(kind, random.nextInt(1000))).toList();
            EngineActivity oneByOne = before;
            ActivityChange merged = events.get(0);
            for (int i = 0; i < events.size(); i++) {
                oneByOne = events.get(i).applyTo(oneByOne, "self");
                merged = i == 0 ? merged : merged.then(events.get(i));
            }
            assertThat(merged.applyTo(before, "self")).as("events %s", events).isEqualTo(oneByOne);
        }
    }

    private static ActivityChange event(int kind, int n) {
        return switch (kind) {
            case 0 -> ActivityChange.started();
            case 1 -> ActivityChange.succeeded(n, n * 10L, n % 3, Duration.ofMillis(n + 1), T0.plusSeconds(n));
            case 2 -> ActivityChange.failed(FailureKind.TRANSIENT, "failure " + n, T0.plusSeconds(n));
            case 3 -> ActivityChange.failed(FailureKind.BLOCKED, "blocked " + n, null);
            default -> ActivityChange.released();
        };
    }
}
