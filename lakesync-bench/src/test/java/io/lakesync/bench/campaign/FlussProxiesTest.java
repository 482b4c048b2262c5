package io.lakesync.bench.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class FlussProxiesTest {

    @Test
    void eachServerGetsAListenerBesideItsOwnAdvertisedAtItsProxy() throws Exception {
        try (FlussProxies proxies = new FlussProxies()) {
            Map<String, String> options = proxies.options("coordinator", "FLUSS://127.0.0.1:9123");

            String bind = options.get("bind.listeners");
            String advertised = options.get("advertised.listeners");
            assertThat(bind).matches("FLUSS://127\\.0\\.0\\.1:9123,CAMPAIGN://127\\.0\\.0\\.1:\\d+");
            assertThat(advertised).matches("FLUSS://127\\.0\\.0\\.1:9123,CAMPAIGN://127\\.0\\.0\\.1:\\d+");
            assertThat(advertised).as("the proxy's port, not the bound one").isNotEqualTo(bind);
            assertThat(proxies.bootstrapServers()).isEqualTo(advertised.substring(advertised.indexOf("CAMPAIGN://") + 11));
            assertThat(proxies.options("coordinator", "FLUSS://127.0.0.1:9123"))
                    .as("a restarted server keeps its route").isEqualTo(options);
            assertThat(proxies.options("tablet-server-0", "FLUSS://127.0.0.1:9124").get("advertised.listeners"))
                    .isNotEqualTo(advertised);
        }
    }

    @Test
    void aServerOnAPortPickedAtStartCannotBeAdvertised() throws Exception {
        try (FlussProxies proxies = new FlussProxies()) {
            assertThatThrownBy(() -> proxies.options("coordinator", "FLUSS://127.0.0.1:0"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("fixed port");
            assertThatThrownBy(proxies::bootstrapServers).isInstanceOf(IllegalStateException.class);
        }
    }
}
