package io.lakesync.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TableScopeTest {

    @Test
    void starMatchesEveryTable() {
        TableScope all = TableScope.parse(" * ", "test");

        assertThat(all).isSameAs(TableScope.ALL);
        assertThat(all.matches("fluss.orders")).isTrue();
    }

    @Test
    void globStarAndQuestionMarkAreTheOnlyWildcards() {
        TableScope glob = TableScope.parse("fluss.orders_?*", "test");

        assertThat(glob.matches("fluss.orders_eu")).isTrue();
        assertThat(glob.matches("fluss.orders_1")).isTrue();
        assertThat(glob.matches("fluss.orders_")).isFalse();
        assertThat(glob.matches("flussXorders_eu")).as("the dot is literal").isFalse();
        assertThat(glob.matches("other.fluss.orders_eu")).as("the whole name must match").isFalse();
        assertThat(glob.text()).isEqualTo("fluss.orders_?*");
    }

    @Test
    void regexMustMatchTheWholeName() {
        TableScope regex = TableScope.parse("regex:fluss\\.(orders|payments)", "test");

        assertThat(regex.matches("fluss.orders")).isTrue();
        assertThat(regex.matches("fluss.payments")).isTrue();
        assertThat(regex.matches("fluss.orders_eu")).isFalse();
    }

    @Test
    void anInvalidRegexNamesTheFieldAndTheProblem() {
        assertThatThrownBy(() -> TableScope.parse("regex:fluss.(orders", "Alert rule 'lag'"))
                .isInstanceOfSatisfying(
                        InvalidAlertConfigException.class, e -> assertThat(e.field()).isEqualTo("tables"))
                .hasMessageStartingWith("Alert rule 'lag': 'tables' is not a valid regular expression: Unclosed group");
    }
}
