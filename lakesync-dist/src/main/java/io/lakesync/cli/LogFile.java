package io.lakesync.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.FileAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * Adds {@code <data folder>/logs/lakesync.log} to the logging set up by {@code log4j2.xml}: every event, with
 * its stack trace, including those the terminal leaves out. Done in code because the data folder is known only
 * once the configuration is loaded, after logging has started.
 */
final class LogFile {

    private static final String PATTERN = "%d{ISO8601} %-5level [%t] %c - %msg%n";

    private LogFile() {}

    /** Starts writing every log line also to {@code dataDir/logs/lakesync.log} and returns that file. */
    static Path attach(Path dataDir) throws IOException {
        Path file = Files.createDirectories(dataDir.resolve("logs")).resolve("lakesync.log");
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        Configuration configuration = context.getConfiguration();
        FileAppender appender =
                FileAppender.newBuilder()
                        .setName("lakesync-file")
                        .withFileName(file.toString())
                        .withAppend(true)
                        .setLayout(
                                PatternLayout.newBuilder()
                                        .withConfiguration(configuration)
                                        .withPattern(PATTERN)
                                        .build())
                        .setConfiguration(configuration)
                        .build();
        appender.start();
        configuration.addAppender(appender);
        configuration.getRootLogger().addAppender(appender, null, null);
        // Loggers kept off the terminal (log4j2.xml) do not pass their events on to the root: they get the file too.
        configuration.getLoggers().values().stream()
                .filter(logger -> !logger.isAdditive())
                .forEach(logger -> logger.addAppender(appender, null, null));
        context.updateLoggers();
        return file;
    }
}
