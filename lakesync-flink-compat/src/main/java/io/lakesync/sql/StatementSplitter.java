package io.lakesync.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits SQL text into statements at each {@code ;} that is not inside a string literal, a quoted identifier or
 * a comment. Comments are dropped; a statement without a closing {@code ;} is returned as {@link #rest()}.
 */
final class StatementSplitter {

    private final List<String> statements = new ArrayList<>();
    private final String rest;

    private StatementSplitter(String text) {
        StringBuilder current = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\'' || c == '`' || c == '"') {
                int end = closingQuote(text, i, c);
                current.append(text, i, end);
                i = end;
            } else if (text.startsWith("--", i)) {
                int end = text.indexOf('\n', i);
                i = end < 0 ? text.length() : end;
            } else if (text.startsWith("/*", i)) {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? text.length() : end + 2;
            } else if (c == ';') {
                addIfNotBlank(current.toString());
                current.setLength(0);
                i++;
            } else {
                current.append(c);
                i++;
            }
        }
        rest = current.toString().strip();
    }

    /** The statements of {@code text}; an unterminated last one counts too. */
    static List<String> split(String text) {
        StatementSplitter splitter = new StatementSplitter(text);
        List<String> all = new ArrayList<>(splitter.statements);
        if (!splitter.rest.isEmpty()) {
            all.add(splitter.rest);
        }
        return all;
    }

    /** The complete statements of {@code text}, each ended by {@code ;}. */
    static StatementSplitter complete(String text) {
        return new StatementSplitter(text);
    }

    List<String> statements() {
        return statements;
    }

    /** What follows the last {@code ;}, comments removed: a statement still being typed. */
    String rest() {
        return rest;
    }

    private void addIfNotBlank(String statement) {
        if (!statement.isBlank()) {
            statements.add(statement.strip());
        }
    }

    /** The index after the quote closing the one at {@code start}; a doubled quote is an escaped one. */
    private static int closingQuote(String text, int start, char quote) {
        int i = start + 1;
        while (i < text.length()) {
            if (text.charAt(i) == quote) {
                if (i + 1 < text.length() && text.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return text.length();
    }
}
