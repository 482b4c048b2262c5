package io.lakesync.bench.contender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The environment variables that profile contenders or try settings on B. */
class ContenderEnvironmentTest {

    @Test
    void extraJvmFlagsAreSplitOnWhitespace() {
        assertThat(ChildJvm.extraFlags(null)).isEmpty();
        assertThat(ChildJvm.extraFlags("  ")).isEmpty();
        assertThat(ChildJvm.extraFlags(" -XX:StartFlightRecording=filename=b.jfr  -Xss2m "))
                .containsExactly("-XX:StartFlightRecording=filename=b.jfr", "-Xss2m");
    }

    @Test
    void settingsForBAreKeyValuePairs() {
        assertThat(LakesyncTieringEngine.overrides(null)).isEmpty();
        assertThat(LakesyncTieringEngine.overrides("tiering.workers=8, tiering.bucket-parallelism = 2"))
                .containsEntry("tiering.workers", "8")
                .containsEntry("tiering.bucket-parallelism", "2")
                .hasSize(2);
        assertThatThrownBy(() -> LakesyncTieringEngine.overrides("tiering.workers"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("BENCH_B_SETTINGS")
                .hasMessageContaining("'tiering.workers'");
    }
}
