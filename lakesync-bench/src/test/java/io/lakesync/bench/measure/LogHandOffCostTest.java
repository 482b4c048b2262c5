package io.lakesync.bench.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The measurement runs end to end on a few rows: both ways write, and each reports its figures. */
class LogHandOffCostTest {

    @TempDir
    Path dir;

    @Test
    void reportsBothWaysPerRepetitionAndTheirMedians() throws Exception {
        List<String> report = LogHandOffCost.measure(10_000, 1, dir);

        assertThat(report).hasSize(4);
        assertThat(report.get(0)).startsWith("rep 1").contains("per-record").contains("thread cpu");
        assertThat(report.get(1)).startsWith("rep 1").contains("range").contains("allocated");
        assertThat(report.subList(2, 4)).allSatisfy(line -> assertThat(line).startsWith("median"));
    }
}
