package io.lakesync.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SoakMainTest {

    private static SoakSettings parse(String... args) {
        SoakMain main = new SoakMain();
        new CommandLine(main).parseArgs(args);
        return main.settings();
    }

    @Test
    void defaultsAreAHundredKillsUnderAModestLoad() {
        SoakSettings settings = parse();
        assertThat(settings.kills()).isEqualTo(100);
        assertThat(settings.freshness()).isEqualTo(Duration.ofSeconds(3));
        assertThat(settings.rowsPerSecond()).isEqualTo(200);
        assertThat(settings.partitionEvery()).isEqualTo(Duration.ofSeconds(90));
        assertThat(settings.maxGap()).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings.dataDir()).isNull();

        SoakSettings small = parse("--kills", "3", "--freshness", "1s", "--max-gap", "500ms");
        assertThat(small.kills()).isEqualTo(3);
        assertThat(small.freshness()).isEqualTo(Duration.ofSeconds(1));
        assertThat(small.maxGap()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void badValuesNameTheirOption() {
        assertThatThrownBy(() -> parse("--kills", "0")).hasMessageContaining("--kills must be at least 1");
        assertThatThrownBy(() -> parse("--rate", "-5")).hasMessageContaining("--rate");
        assertThatThrownBy(() -> parse("--buckets", "0")).hasMessageContaining("--buckets");
        assertThatThrownBy(() -> parse("--freshness", "soon")).hasMessageContaining("--freshness must be a duration");
        assertThatThrownBy(() -> parse("--partition-every", "0s")).hasMessageContaining("--partition-every");
        assertThatThrownBy(() -> parse("--catch-up-timeout", "0ms")).hasMessageContaining("--catch-up-timeout");
        assertThatThrownBy(() -> parse("--heap", "lots")).hasMessageContaining("--heap must be a JVM heap size");
    }

    @Test
    void aBadOptionExitsWithUsageErrorBeforeStartingAnything() {
        int code = new CommandLine(new SoakMain()).execute("--kills", "0");
        assertThat(code).isEqualTo(2);
    }
}
