package io.lakesync.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain-text table with a header row and aligned columns, for the CLI's listings. */
final class TextTable {

    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    TextTable(String... header) {
        this.header = List.of(header);
    }

    TextTable row(Object... cells) {
        List<String> row = new ArrayList<>();
        for (Object cell : cells) {
            row.add(cell == null ? "-" : String.valueOf(cell));
        }
        rows.add(row);
        return this;
    }

    void print(PrintWriter out) {
        int[] widths = new int[header.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = header.get(i).length();
            for (List<String> row : rows) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        line(out, header, widths);
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < widths.length; i++) {
            rule.append(i == 0 ? "" : "  ").append("-".repeat(widths[i]));
        }
        out.println(rule);
        rows.forEach(row -> line(out, row, widths));
        if (rows.isEmpty()) {
            out.println("(none)");
        }
        out.flush();
    }

    private static void line(PrintWriter out, List<String> cells, int[] widths) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            String cell = cells.get(i);
            text.append(i == 0 ? "" : "  ").append(i == cells.size() - 1 ? cell : pad(cell, widths[i]));
        }
        out.println(text);
    }

    private static String pad(String text, int width) {
        return text + " ".repeat(width - text.length());
    }
}
