package io.lakesync.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.retry.RetryBackoff;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WebhookSettingsTest {

    @Test
    void readsTheAlertWebhookOptions() {
        WebhookSettings settings = WebhookSettings.fromConfig(LakeSyncConfig.fromMap(Map.of(
                "alert.webhook.max-attempts", "3",
                "alert.webhook.initial-backoff", "250ms",
                "alert.webhook.timeout", "2s"), "test"));

        assertThat(settings).isEqualTo(new WebhookSettings(3, Duration.ofMillis(250), Duration.ofSeconds(2)));
        assertThat(WebhookSettings.fromConfig(LakeSyncConfig.defaults()))
                .isEqualTo(new WebhookSettings(5, Duration.ofSeconds(1), Duration.ofSeconds(10)));
    }

    @Test
    void retriesDoubleUpToFiveMinutesWithJitter() {
        WebhookSettings settings = new WebhookSettings(20, Duration.ofSeconds(1), Duration.ofSeconds(1));

        RetryBackoff retries = settings.retries();
        assertThat(retries.initial()).isEqualTo(Duration.ofSeconds(1));
        assertThat(retries.max()).isEqualTo(Duration.ofMinutes(5));
        assertThat(retries.delay(4)).isBetween(Duration.ofMillis(6400), Duration.ofMillis(9600));
        assertThat(retries.delay(19)).isBetween(Duration.ofMinutes(4), Duration.ofMinutes(5));
    }

    @Test
    void refusesValuesThatCannotWorkNamingTheOption() {
        assertThatThrownBy(() -> WebhookSettings.fromConfig(
                LakeSyncConfig.fromMap(Map.of("alert.webhook.max-attempts", "0"), "test")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value 0 for config key 'alert.webhook.max-attempts': "
                        + "at least 1 attempt is needed.");
        assertThatThrownBy(() -> WebhookSettings.fromConfig(
                LakeSyncConfig.fromMap(Map.of("alert.webhook.timeout", "0s"), "test")))
                .hasMessageContaining("Invalid value '0s' for config key 'alert.webhook.timeout'")
                .hasMessageContaining("must be more than 0");
        assertThatThrownBy(() -> new WebhookSettings(1, Duration.ofSeconds(-1), Duration.ofSeconds(1)))
                .hasMessage("Invalid value PT-1S for config key 'alert.webhook.initial-backoff': "
                        + "it must not be negative.");
    }
}
