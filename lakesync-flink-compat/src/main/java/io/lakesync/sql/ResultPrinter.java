package io.lakesync.sql;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.ResultKind;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * Prints a statement's result as text: a batch query as a boxed table, a streaming query row by row as it
 * arrives (with the change kind, {@code +I}, {@code -U}, {@code +U}, {@code -D}), anything else as {@code OK}.
 */
final class ResultPrinter {

    private final PrintWriter out;

    ResultPrinter(PrintWriter out) {
        this.out = out;
    }

    /** Prints {@code result}; a streaming one stops after {@code maxRows} rows (0: until it ends). */
    void print(TableResult result, boolean streaming, long maxRows) throws Exception {
        if (result.getResultKind() != ResultKind.SUCCESS_WITH_CONTENT) {
            out.println("OK");
            return;
        }
        List<String> columns = result.getResolvedSchema().getColumnNames();
        try (CloseableIterator<Row> rows = result.collect()) {
            if (streaming) {
                printStream(columns, rows, maxRows);
            } else {
                List<List<String>> cells = new ArrayList<>();
                rows.forEachRemaining(row -> cells.add(cells(row)));
                printTable(columns, cells);
            }
        }
    }

    private void printStream(List<String> columns, CloseableIterator<Row> rows, long maxRows) {
        out.println("op | " + String.join(" | ", columns));
        long printed = 0;
        while ((maxRows == 0 || printed < maxRows) && rows.hasNext()) {
            Row row = rows.next();
            out.println(row.getKind().shortString() + " | " + String.join(" | ", cells(row)));
            printed++;
        }
        out.println(printed + (printed == 1 ? " row" : " rows") + (maxRows > 0 && printed == maxRows
                ? " (stopped at --max-rows)" : ""));
    }

    private void printTable(List<String> columns, List<List<String>> rows) {
        int[] widths = columns.stream().mapToInt(String::length).toArray();
        for (List<String> row : rows) {
            for (int i = 0; i < widths.length; i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder border = new StringBuilder("+");
        for (int width : widths) {
            border.append("-".repeat(width + 2)).append('+');
        }
        out.println(border);
        out.println(line(columns, widths));
        out.println(border);
        rows.forEach(row -> out.println(line(row, widths)));
        if (!rows.isEmpty()) {
            out.println(border);
        }
        out.println(rows.size() + (rows.size() == 1 ? " row" : " rows"));
    }

    private static String line(List<String> cells, int[] widths) {
        StringBuilder line = new StringBuilder("|");
        for (int i = 0; i < widths.length; i++) {
            line.append(' ').append(String.format("%-" + widths[i] + "s", cells.get(i))).append(" |");
        }
        return line.toString();
    }

    private static List<String> cells(Row row) {
        List<String> cells = new ArrayList<>(row.getArity());
        for (int i = 0; i < row.getArity(); i++) {
            Object value = row.getField(i);
            cells.add(value == null ? "NULL" : value.toString());
        }
        return cells;
    }
}
