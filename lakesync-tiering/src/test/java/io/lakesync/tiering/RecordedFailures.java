package io.lakesync.tiering;

import io.lakesync.fluss.tiering.TableAssignment;
import io.lakesync.tiering.round.RoundHooks;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;

/** Records every failed round of the services it listens to, for tests to wait on and inspect. */
final class RecordedFailures implements TieringListener {

    /** One failed round. */
    record Failure(TablePath table, FailureKind kind, Throwable cause, Duration retryIn) {}

    private final List<Failure> failures = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void roundFailed(TableAssignment assignment, Throwable cause, FailureKind kind, Duration retryIn) {
        failures.add(new Failure(assignment.tablePath(), kind, cause, retryIn));
    }

    /** The failed rounds of one table, oldest first. */
    List<Failure> of(TablePath table) {
        synchronized (failures) {
            return failures.stream().filter(f -> f.table().equals(table)).toList();
        }
    }

    /** Starts a service reporting to this listener that rechecks blocked tables every second. */
    TieringService startService(String instance, Map<String, String> extra) throws Exception {
        return startService(instance, extra, RoundHooks.NONE);
    }

    TieringService startService(String instance, Map<String, String> extra, RoundHooks hooks) throws Exception {
        Map<String, String> config = new HashMap<>(Map.of("tiering.blocked-recheck-interval", "1s"));
        config.putAll(extra);
        TieringService service =
                new TieringService(TieringTestBase.serviceConfig(instance, config), this, hooks, Clock.systemUTC());
        service.start();
        return service;
    }
}
