package io.lakesync.bench.contender;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.bench.data.DataSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

class ChildArgsTest {

    private static final TablePath TIMED = TablePath.of("bench", "log_r1_write_bound");
    private static final TablePath WARM_UP = TablePath.of("bench", "warmup_log_r1_write_bound");

    private static ChildArgs timed() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put(ChildArgs.CONTENDER, "write-bound");
        values.put(ChildArgs.TABLES, ChildArgs.tableList(List.of(TIMED)));
        values.putAll(DataSpec.log(5_000_000, 42, 8).toArgs());
        return new ChildArgs(values);
    }

    @Test
    void aBoundWithoutAWarmUpHasNone() {
        assertThat(timed().warmUp()).isEmpty();
    }

    @Test
    void theWarmUpReplacesTablesAndSpecAndSurvivesTheCommandLine() {
        ChildArgs args = timed();
        args.putWarmUp(List.of(WARM_UP), DataSpec.log(500_000, 42, 8).toArgs());

        ChildArgs parsed = ChildArgs.parse(args.toList().toArray(new String[0]));
        ChildArgs warmUp = parsed.warmUp().orElseThrow();

        assertThat(warmUp.tables()).containsExactly(WARM_UP);
        assertThat(DataSpec.fromArgs(warmUp.values()).rows()).isEqualTo(500_000);
        assertThat(warmUp.require(ChildArgs.CONTENDER)).isEqualTo("write-bound");
        assertThat(warmUp.warmUp()).as("a warm-up has no warm-up of its own").isEmpty();
        assertThat(parsed.tables()).containsExactly(TIMED);
        assertThat(DataSpec.fromArgs(parsed.values()).rows()).isEqualTo(5_000_000);
    }
}
