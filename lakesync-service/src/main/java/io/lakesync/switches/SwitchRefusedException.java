package io.lakesync.switches;

import io.lakesync.catalog.CheckResult;
import java.util.List;

/** A switch that was not flipped, with the reason (and, for the service switch, the checks that ran). */
public class SwitchRefusedException extends Exception {

    private final List<CheckResult> checks;

    public SwitchRefusedException(String message) {
        this(message, List.of());
    }

    public SwitchRefusedException(String message, List<CheckResult> checks) {
        super(message);
        this.checks = List.copyOf(checks);
    }

    public List<CheckResult> checks() {
        return checks;
    }
}
