package io.lakesync.bench.report;

import java.util.List;
import java.util.Map;

/** Everything one benchmark invocation measured: printed as Markdown, written as JSON. */
public record BenchReport(
        String scenario,
        String generatedAt,
        Map<String, Object> settings,
        Map<String, Object> environment,
        List<ContenderSummary> contenders) {}
