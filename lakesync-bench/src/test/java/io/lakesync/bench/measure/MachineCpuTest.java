package io.lakesync.bench.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class MachineCpuTest {

    @Test
    void busyTimeIsEverythingButIdleAndIowaitInHundredthsOfASecond() {
        MachineCpu earlier = MachineCpu.parse(List.of(
                "cpu  1000 10 500 8000 40 5 5 0 0 0", "cpu0 500 5 250 4000 20 3 2 0 0 0", "intr 12345"));
        MachineCpu later = MachineCpu.parse(List.of("cpu  1150 10 550 8100 40 5 15 30 0 0"));

        MachineCpu window = later.since(earlier);

        // user 150 + system 50 + softirq 10 + steal 30 ticks busy; idle 100 ticks more.
        assertThat(window.busySeconds()).isCloseTo(2.40, Offset.offset(1e-9));
        assertThat(window.totalSeconds()).isCloseTo(3.40, Offset.offset(1e-9));
    }

    @Test
    void aFileWithoutTheAggregateLineIsRefused() {
        assertThatThrownBy(() -> MachineCpu.parse(List.of("cpu0 1 2 3 4", "intr 5")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'cpu'");
    }

    @Test
    void thisMachineReportsBusyTimeNoLargerThanItsTotal() {
        MachineCpu now = MachineCpu.now();
        assertThat(now).isNotNull();
        assertThat(now.busySeconds()).isPositive().isLessThanOrEqualTo(now.totalSeconds());
    }
}
