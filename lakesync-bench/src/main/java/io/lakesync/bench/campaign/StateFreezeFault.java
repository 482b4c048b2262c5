package io.lakesync.bench.campaign;

import io.lakesync.local.LocalPostgres;
import java.util.SplittableRandom;

/** The shared state database frozen: SIGSTOP of every PostgreSQL process, SIGCONT at heal. */
final class StateFreezeFault implements Fault {

    private final LocalPostgres state;

    StateFreezeFault(LocalPostgres state) {
        this.state = state;
    }

    @Override
    public String name() {
        return "state-freeze";
    }

    @Override
    public String description() {
        return "SIGSTOP of the state database's PostgreSQL processes, SIGCONT at heal";
    }

    @Override
    public String inject(SplittableRandom random) throws Exception {
        state.pause();
        return "PostgreSQL stopped (SIGSTOP)";
    }

    @Override
    public void heal() throws Exception {
        state.resume();
    }
}
