package io.lakesync.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatementSplitterTest {

    @Test
    void splitsAtSemicolonsOutsideQuotesAndComments() {
        String script = """
                -- a comment; not a statement
                CREATE TABLE `a;b` (s STRING) WITH ('k' = 'v;w', 'q' = 'it''s; fine');
                /* block; comment */ SELECT "x;y" FROM t;
                SELECT 1""";
        assertThat(StatementSplitter.split(script)).containsExactly(
                "CREATE TABLE `a;b` (s STRING) WITH ('k' = 'v;w', 'q' = 'it''s; fine')",
                "SELECT \"x;y\" FROM t",
                "SELECT 1");
    }

    @Test
    void aStatementBeingTypedIsKeptUntilItsSemicolon() {
        StatementSplitter typed = StatementSplitter.complete("SELECT 1;\nSELECT 'a;\n");
        assertThat(typed.statements()).containsExactly("SELECT 1");
        assertThat(typed.rest()).isEqualTo("SELECT 'a;");
        assertThat(StatementSplitter.complete(" ;; -- only a comment\n").statements()).isEmpty();
    }

    @Test
    void anErrorIsItsInnermostMessageOnOneLine() {
        Exception error = new RuntimeException("SQL validation failed. From line 1:\n at stack",
                new IllegalStateException("Object 'x' not found\nmore"));
        assertThat(SqlMain.oneLine(error)).isEqualTo("Object 'x' not found");
    }
}
