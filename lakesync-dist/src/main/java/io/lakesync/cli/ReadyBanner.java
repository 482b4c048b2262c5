package io.lakesync.cli;

import java.io.PrintWriter;
import java.util.Map;

/** The block a command prints once everything is up: what runs where, and how to stop it. */
final class ReadyBanner {

    private ReadyBanner() {}

    static void print(PrintWriter out, String title, Map<String, String> rows) {
        int width = rows.keySet().stream().mapToInt(String::length).max().orElse(0);
        out.println();
        out.println(title);
        rows.forEach((name, value) -> out.printf("  %-" + width + "s  %s%n", name, value));
        out.println("Press Ctrl-C to stop.");
        out.println();
        out.flush();
    }
}
