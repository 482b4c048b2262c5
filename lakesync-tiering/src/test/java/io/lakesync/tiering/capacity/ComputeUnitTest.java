package io.lakesync.tiering.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ComputeUnitTest {

    @Test
    void aRoundUsesItsCpuOrItsMemoryButNeverMoreThanTheOneCuItHeld() {
        assertThat(ComputeUnit.cuSeconds(3, 4, 10)).as("CPU-bound").isEqualTo(3);
        assertThat(ComputeUnit.cuSeconds(3, 40, 20)).as("memory beyond what its CPU comes with").isEqualTo(10);
        assertThat(ComputeUnit.cuSeconds(18, 4, 10)).as("parallel readers: one CU for its wall time").isEqualTo(10);
        assertThat(ComputeUnit.cuSeconds(0, 400, 10)).as("a quota of N CUs bounds usage at N CU-hours an hour")
                .isEqualTo(10);
    }
}
