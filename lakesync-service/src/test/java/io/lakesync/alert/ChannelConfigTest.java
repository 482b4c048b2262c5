package io.lakesync.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ChannelConfigTest {

    @Test
    void parsesBothTypesInAnyCase() {
        assertThat(ChannelConfig.parse("log2", "LOG", null)).isEqualTo(ChannelConfig.log("log2"));
        assertThat(ChannelConfig.parse("ops", "webhook", " https://hooks.example/alerts "))
                .isEqualTo(ChannelConfig.webhook("ops", URI.create("https://hooks.example/alerts")));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "type missing        | ops | ''      |                      | type | is required: log or webhook.",
        "type unknown        | ops | email   |                      | type | must be log or webhook; got 'email'.",
        "webhook without url | ops | webhook |                      | url  | is required for a webhook channel.",
        "log with url        | ops | log     | http://h/x           | url  | is only for webhook channels; leave it out.",
        "not http            | ops | webhook | ftp://h/x            | url  | must be an absolute http:// or https:// URL with a host; got 'ftp://h/x'.",
        "relative            | ops | webhook | /alerts              | url  | must be an absolute http:// or https:// URL with a host; got '/alerts'.",
        "unparsable          | ops | webhook | http://h/a b         | url  | is not a valid URL: Illegal character in path at index 10: http://h/a b.",
    })
    void refusesABadFieldByName(String title, String name, String type, String url, String field, String problem) {
        assertThatThrownBy(() -> ChannelConfig.parse(name, type.isEmpty() ? null : type, url))
                .isInstanceOfSatisfying(InvalidAlertConfigException.class, e -> assertThat(e.field()).isEqualTo(field))
                .hasMessage("Channel '" + name + "': '" + field + "' " + problem);
    }

    @Test
    void refusesABadName() {
        assertThatThrownBy(() -> ChannelConfig.log("-log"))
                .hasMessageStartingWith("Channel: 'name' must be 1 to 64 letters");
    }
}
