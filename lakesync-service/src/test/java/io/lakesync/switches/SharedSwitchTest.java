package io.lakesync.switches;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.config.LakeSyncConfig;
import io.lakesync.state.StateStore;
import io.lakesync.testing.ManualClock;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An instance follows the switch another instance turned in the shared state: its engine stops and starts once
 * per change. Prerequisites and table checks belong to the instance that takes the call ({@link SwitchesTest}).
 */
class SharedSwitchTest {

    @TempDir Path dataDir;

    @Test
    void theEngineFollowsTheSwitchTurnedElsewhereOncePerChange() throws Exception {
        try (StateStore state = StateStore.open(
                LakeSyncConfig.fromMap(Map.of("data.dir", dataDir.toString()), "test"),
                new ManualClock(Instant.parse("2026-11-30T12:00:00Z")))) {
            List<String> engine = new ArrayList<>();
            ServiceSwitchControl follower = new ServiceSwitchControl(state.serviceSwitch(), null, null,
                    new ServiceSwitchControl.Engine() {
                        @Override
                        public void start() {
                            engine.add("start");
                        }

                        @Override
                        public void stop() {
                            engine.add("stop");
                        }
                    });
            follower.followSharedSwitch();
            assertThat(engine).as("nothing before the instance started").isEmpty();

            follower.startIfEnabled();
            follower.followSharedSwitch();
            assertThat(engine).containsExactly("start");

            state.serviceSwitch().set(false, "alice", "no table enabled"); // through another instance
            follower.followSharedSwitch();
            follower.followSharedSwitch();
            assertThat(engine).containsExactly("start", "stop");

            state.serviceSwitch().set(true, "bob", "prerequisites passed");
            follower.followSharedSwitch();
            assertThat(engine).containsExactly("start", "stop", "start");
            assertThat(follower.isEnabled()).isTrue();
        }
    }
}
