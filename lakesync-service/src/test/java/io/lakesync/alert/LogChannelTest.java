package io.lakesync.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LogChannelTest {

    private static final String MESSAGE = "syncLatencyMs > 1 on fluss.orders: value 2";

    private final List<LogEvent> logged = new CopyOnWriteArrayList<>();
    private final Logger logger = (Logger) LogManager.getLogger(LogChannel.class);
    private final AbstractAppender capture = new AbstractAppender("capture", null, null, true, Property.EMPTY_ARRAY) {
        @Override
        public void append(LogEvent event) {
            logged.add(event.toImmutable());
        }
    };
    private Level previousLevel;

    @BeforeEach
    void captureLogChannel() {
        capture.start();
        logger.addAppender(capture);
        previousLevel = logger.getLevel();
        logger.setLevel(Level.INFO);
    }

    @AfterEach
    void release() {
        logger.removeAppender(capture);
        logger.setLevel(previousLevel);
        capture.stop();
    }

    private static AlertEvent event(AlertEvent.State state, Severity severity) {
        Instant at = Instant.parse("2025-01-01T00:00:00Z");
        return new AlertEvent(7, "lag", "fluss.orders", state, severity, "syncLatencyMs", "syncLatencyMs > 1", 2.0,
                at, at, List.of("log"), MESSAGE);
    }

    @Test
    void logsOneLinePerEventAtTheLevelOfItsSeverity() {
        LogChannel channel = new LogChannel();

        for (Severity severity : Severity.values()) {
            assertThat(channel.deliver(event(AlertEvent.State.FIRING, severity)).join())
                    .isEqualTo(new DeliveryOutcome(true, 1, "logged"));
        }
        channel.deliver(event(AlertEvent.State.RESOLVED, Severity.CRITICAL));

        assertThat(logged)
                .extracting(LogEvent::getLevel, e -> e.getMessage().getFormattedMessage())
                .containsExactly(
                        tuple(Level.INFO, "Alert FIRING [INFO] rule 'lag': " + MESSAGE),
                        tuple(Level.WARN, "Alert FIRING [WARNING] rule 'lag': " + MESSAGE),
                        tuple(Level.ERROR, "Alert FIRING [CRITICAL] rule 'lag': " + MESSAGE),
                        tuple(Level.INFO, "Alert RESOLVED [CRITICAL] rule 'lag': " + MESSAGE));
    }
}
