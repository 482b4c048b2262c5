package io.lakesync.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakesync.bench.contender.Contender;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BenchRunnerTest {

    @Test
    void everyOtherRunReversesTheContendersOrder() {
        List<Contender> given = List.of(Contender.A, Contender.B, Contender.A_DEFAULT);

        assertThat(BenchRunner.order(given, 1)).containsExactly(Contender.A, Contender.B, Contender.A_DEFAULT);
        assertThat(BenchRunner.order(given, 2)).containsExactly(Contender.A_DEFAULT, Contender.B, Contender.A);
        assertThat(BenchRunner.order(given, 3)).containsExactly(Contender.A, Contender.B, Contender.A_DEFAULT);
        assertThat(given).as("the settings' list is left as it was").containsExactly(Contender.A, Contender.B,
                Contender.A_DEFAULT);
    }

    @Test
    void jitCpuIsTheCompilersCpuBetweenTwoReadings() {
        assertThat(BenchRunner.jitSeconds(Optional.of(Duration.ofMillis(1_200)), Optional.of(Duration.ofMillis(1_650))))
                .isEqualTo(0.45);
    }

    @Test
    void noJitFigureWhenAReadingIsMissingOrTheCounterWentBack() {
        assertThat(BenchRunner.jitSeconds(Optional.empty(), Optional.of(Duration.ofSeconds(1)))).isNull();
        assertThat(BenchRunner.jitSeconds(Optional.of(Duration.ZERO), Optional.empty()))
                .as("the contender's JVM was gone at the end").isNull();
        assertThat(BenchRunner.jitSeconds(Optional.of(Duration.ofSeconds(2)), Optional.of(Duration.ofSeconds(1))))
                .as("a compiler thread that exited took its CPU with it").isNull();
    }
}
