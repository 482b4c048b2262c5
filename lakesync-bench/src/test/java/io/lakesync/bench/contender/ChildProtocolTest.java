package io.lakesync.bench.contender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChildProtocolTest {

    @Test
    void eventsRoundTripAndOtherOutputIsIgnored() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ChildProtocol protocol = new ChildProtocol(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        protocol.send(ChildProtocol.Type.DONE, Map.of("rowsRead", 42));
        String line = bytes.toString(StandardCharsets.UTF_8).trim();

        ChildProtocol.Event event = ChildProtocol.parse(line).orElseThrow();
        assertThat(event.type()).isEqualTo(ChildProtocol.Type.DONE);
        assertThat(event.payload()).containsEntry("rowsRead", 42);
        assertThat(ChildProtocol.parse("Flink says hello")).isEmpty();
        assertThat(ChildProtocol.parse(ChildProtocol.PREFIX + "NONSENSE {}")).isEmpty();
    }

    @Test
    void argumentsAreKeyValuePairs() {
        ChildArgs args = ChildArgs.parse(new String[] {
            "contender=A", "tables=bench.t1,bench.t2", "datalake.paimon.warehouse=/w", "fluss.bootstrap.servers=h:1"
        });
        assertThat(args.tables()).extracting(Object::toString).containsExactly("bench.t1", "bench.t2");
        assertThat(args.lakeOptions()).containsExactly(Map.entry("warehouse", "/w"));
        assertThat(ChildArgs.parse(args.toList().toArray(new String[0])).values()).isEqualTo(args.values());
        assertThatThrownBy(() -> ChildArgs.parse(new String[] {"oops"})).hasMessageContaining("'oops'");
        assertThatThrownBy(() -> args.require("work.dir")).hasMessageContaining("'work.dir' is missing");
    }

    @Test
    void contendersAreKnownByLabel() {
        assertThat(Contender.fromLabel("a-default")).isEqualTo(Contender.A_DEFAULT);
        assertThatThrownBy(() -> Contender.fromLabel("C"))
                .hasMessageContaining("Unknown contender 'C'")
                .hasMessageContaining("read-bound");
    }

    @Test
    void childClasspathPutsTheLoggingJarsFirst() {
        String cp = String.join(java.io.File.pathSeparator,
                "/l/fluss-server-0.9.1.jar", "/l/log4j-core-2.24.3.jar", "/c/classes", "/l/slf4j-api-2.0.16.jar");
        assertThat(ChildJvm.loggingFirst(cp).split(java.io.File.pathSeparator)).containsExactly(
                "/l/log4j-core-2.24.3.jar", "/l/slf4j-api-2.0.16.jar", "/l/fluss-server-0.9.1.jar", "/c/classes");
    }
}
