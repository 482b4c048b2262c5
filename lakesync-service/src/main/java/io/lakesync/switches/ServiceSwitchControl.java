package io.lakesync.switches;

import io.lakesync.catalog.CheckResult;
import io.lakesync.catalog.Prerequisites;
import io.lakesync.state.ServiceSwitch;
import io.lakesync.state.ServiceSwitchRepository;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.fluss.metadata.TablePath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster-level switch of the lakesync service. Turning it on first proves the prerequisites (and
 * names the check that failed); turning it off is refused while any table still has lake sync enabled, and
 * stops all syncing when accepted. A cluster nobody switched yet counts as on, so an existing lake-enabled
 * cluster keeps syncing when lakesync takes over from the Flink job.
 *
 * <p>The switch is one row of the shared state, so with several instances any of them may turn it; each instance
 * re-reads it with every heartbeat ({@link #followSharedSwitch()}) and starts or stops its own engine to match.
 */
public final class ServiceSwitchControl {

    /** What the switch turns on and off: the tiering engine of this instance. */
    public interface Engine {
        void start() throws Exception;

        void stop() throws Exception;
    }

    private static final Logger LOG = LoggerFactory.getLogger(ServiceSwitchControl.class);

    private final ServiceSwitchRepository repository;
    private final Prerequisites prerequisites;
    private final TableSwitches tables;
    private final Engine engine;
    /** What this instance's engine was last set to; null before {@link #startIfEnabled()}. */
    private Boolean engineOn;

    public ServiceSwitchControl(
            ServiceSwitchRepository repository, Prerequisites prerequisites, TableSwitches tables, Engine engine) {
        this.repository = repository;
        this.prerequisites = prerequisites;
        this.tables = tables;
        this.engine = engine;
    }

    public boolean isEnabled() {
        return repository.get().map(ServiceSwitch::enabled).orElse(true);
    }

    /** Starts the engine if the switch is on; called once at start-up. */
    public synchronized void startIfEnabled() throws Exception {
        if (isEnabled()) {
            engine.start();
            engineOn = true;
        } else {
            engineOn = false;
            LOG.info("The lakesync service is switched off for this cluster; not syncing");
        }
    }

    /** Starts or stops this instance's engine when another instance turned the shared switch. */
    public synchronized void followSharedSwitch() throws Exception {
        Optional<ServiceSwitch> current = repository.get();
        boolean on = current.map(ServiceSwitch::enabled).orElse(true);
        if (engineOn == null || on == engineOn) {
            return;
        }
        String by = current.map(s -> " by " + s.changedBy() + " at " + s.changedAt()).orElse("");
        if (on) {
            engine.start();
            LOG.info("lakesync service switched on{} through another instance; syncing here too", by);
        } else {
            engine.stop();
            LOG.info("lakesync service switched off{} through another instance; stopped syncing here", by);
        }
        engineOn = on;
    }

    /** Runs the prerequisite checks, then turns the service on; returns the checks that ran. */
    public List<CheckResult> enable(String actor) throws Exception {
        List<CheckResult> checks = prerequisites.run();
        if (!Prerequisites.allPassed(checks)) {
            CheckResult failed = checks.stream().filter(c -> !c.passed()).findFirst().orElseThrow();
            throw new SwitchRefusedException(
                    "Prerequisite check '" + failed.name() + "' failed: " + failed.detail(), checks);
        }
        repository.set(true, actor, "prerequisites passed");
        synchronized (this) {
            engine.start();
            engineOn = true;
        }
        LOG.info("lakesync service switched on by {}", actor);
        return checks;
    }

    /** Turns the service off, unless a table still has lake sync enabled. */
    public void disable(String actor) throws Exception {
        List<TablePath> enabled = tables.enabledTables();
        if (!enabled.isEmpty()) {
            throw new SwitchRefusedException(
                    "Lake sync is still enabled for " + enabled.size() + " table(s): "
                            + enabled.stream().map(TablePath::toString).collect(Collectors.joining(", "))
                            + ". Disable them first ('lakesync tables disable <db>.<table>').");
        }
        repository.set(false, actor, "no table enabled");
        synchronized (this) {
            engine.stop();
            engineOn = false;
        }
        LOG.info("lakesync service switched off by {}", actor);
    }
}
