package io.lakesync.alert;

import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Which tables an alert rule watches, matched against {@code "<database>.<table>"}. Written as {@code *} for
 * all tables, {@code regex:<Java regular expression>} for a regular expression that must match the whole name,
 * or otherwise a glob where {@code *} matches any characters and {@code ?} one character, for example
 * {@code fluss.orders_*}.
 */
public final class TableScope {

    public static final TableScope ALL = new TableScope("*", Pattern.compile(".*", Pattern.DOTALL));

    private static final String REGEX_PREFIX = "regex:";

    private final String text;
    private final Pattern pattern;

    private TableScope(String text, Pattern pattern) {
        this.text = text;
        this.pattern = pattern;
    }

    /**
     * Parses the written form.
     *
     * @param subject what the scope belongs to, for the error message
     * @throws InvalidAlertConfigException naming the field {@code tables} if it is empty or not a valid regex
     */
    public static TableScope parse(String text, String subject) {
        String trimmed = text == null ? "" : text.trim();
        if (trimmed.isEmpty()) {
            throw new InvalidAlertConfigException(subject, "tables", "must not be empty; use * for all tables.");
        }
        if (trimmed.equals("*")) {
            return ALL;
        }
        if (trimmed.startsWith(REGEX_PREFIX)) {
            try {
                return new TableScope(trimmed, Pattern.compile(trimmed.substring(REGEX_PREFIX.length())));
            } catch (PatternSyntaxException e) {
                throw new InvalidAlertConfigException(subject, "tables",
                        "is not a valid regular expression: " + e.getDescription() + " near index " + e.getIndex()
                                + " of '" + e.getPattern() + "'.");
            }
        }
        return new TableScope(trimmed, globToPattern(trimmed));
    }

    /** Whether the rule watches {@code table}, given as {@code "<database>.<table>"}. */
    public boolean matches(String table) {
        return pattern.matcher(table).matches();
    }

    /** The written form, as given to {@link #parse}. */
    public String text() {
        return text;
    }

    private static Pattern globToPattern(String glob) {
        StringBuilder regex = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (char c : glob.toCharArray()) {
            if (c == '*' || c == '?') {
                regex.append(Pattern.quote(literal.toString())).append(c == '*' ? ".*" : ".");
                literal.setLength(0);
            } else {
                literal.append(c);
            }
        }
        regex.append(Pattern.quote(literal.toString()));
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TableScope && ((TableScope) other).text.equals(text);
    }

    @Override
    public int hashCode() {
        return Objects.hash(text);
    }

    @Override
    public String toString() {
        return text;
    }
}
