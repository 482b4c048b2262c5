package io.lakesync.bench.campaign;

import io.lakesync.local.LocalPostgres;
import java.util.SplittableRandom;

/** The shared state database crashed (immediate shutdown: connections cut, no checkpoint), started at heal. */
final class StateRestartFault implements Fault {

    private final LocalPostgres state;

    StateRestartFault(LocalPostgres state) {
        this.state = state;
    }

    @Override
    public String name() {
        return "state-restart";
    }

    @Override
    public String description() {
        return "PostgreSQL shut down immediately (pg_ctl -m immediate), started again at heal";
    }

    @Override
    public String inject(SplittableRandom random) throws Exception {
        state.stop();
        return "PostgreSQL down";
    }

    @Override
    public void heal() throws Exception {
        state.restart();
    }
}
