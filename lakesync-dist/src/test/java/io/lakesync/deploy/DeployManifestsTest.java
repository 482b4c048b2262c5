package io.lakesync.deploy;

import static io.lakesync.deploy.DeployManifests.configFile;
import static io.lakesync.deploy.DeployManifests.container;
import static io.lakesync.deploy.DeployManifests.map;
import static io.lakesync.deploy.DeployManifests.object;
import static io.lakesync.deploy.DeployManifests.secretData;
import static io.lakesync.deploy.DeployManifests.secretMountPath;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.auth.Authenticator;
import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * The shipped Kubernetes manifests: they parse; the ConfigMap's lakesync.yaml loads through lakesync's own config
 * loader, every key known, its secrets read from the Secret's keys as the Deployment mounts them; no secret is on
 * the Deployment's command line; the Secret's placeholder tokens are refused. (Served for real: DeployManifestsIT.)
 */
class DeployManifestsTest {

    @TempDir Path dir;

    @Test
    void everyManifestParsesAsKubernetesObjects() throws IOException {
        List<Map<String, Object>> objects = DeployManifests.objects();
        assertThat(objects).allSatisfy(object -> {
            assertThat(object).containsKeys("apiVersion", "kind");
            assertThat(map(object, "metadata")).containsEntry("name", "lakesync");
        });
        assertThat(objects).extracting(object -> object.get("kind"))
                .containsExactlyInAnyOrder("ConfigMap", "Deployment", "NetworkPolicy", "Secret", "Service");
    }

    @Test
    void theConfigMapLoadsWithItsSecretsReadFromTheMountedSecret() throws IOException {
        Map<String, String> stringData = secretData();

        LakeSyncConfig loaded = LakeSyncConfig.load(
                configFile(dir, stringData, Map.of()), Map.of("cluster.instance-id", "lakesync-0"));

        assertThat(loaded.get(LakeSyncOptions.AUTH_TOKENS).value()).isEqualTo(stringData.get("auth-tokens"));
        assertThat(loaded.get(LakeSyncOptions.STATE_JDBC_PASSWORD).value()).isEqualTo(stringData.get("state-password"));
        assertThat(loaded.get(LakeSyncOptions.STATE_JDBC_URL)).startsWith("jdbc:postgresql://");
        assertThat(loaded.get(LakeSyncOptions.METRICS_REQUIRE_TOKEN)).isTrue();
        assertThat(loaded.lakeCatalogOptions())
                .containsEntry("metastore", "jdbc")
                .hasEntrySatisfying("uri", uri -> assertThat(uri).startsWith("jdbc:postgresql://")
                        .as("a database of its own").isNotEqualTo(loaded.get(LakeSyncOptions.STATE_JDBC_URL)))
                .containsEntry("lock.enabled", "true")
                .containsEntry("jdbc.password", stringData.get("state-password"))
                .containsEntry("s3.access-key", stringData.get("s3-access-key"))
                .containsEntry("s3.secret-key", stringData.get("s3-secret-key"))
                .hasEntrySatisfying("warehouse", warehouse -> assertThat(warehouse).startsWith("s3://"));
        Map<String, String> given = new LinkedHashMap<>();
        flatten("", new Yaml().load(DeployManifests.lakesyncYaml()), given);
        String fromSecret = "@" + secretMountPath() + "/";
        given.forEach((key, value) -> {
            if (LakeSyncOptions.isSecret(key)) {
                assertThat(value).as("secret config key %s comes from the mounted Secret", key).startsWith(fromSecret);
            }
        });
    }

    @Test
    void theDeploymentRunsThreeInstancesWithNoSecretOnTheCommandLine() throws IOException {
        assertThat(map(object("Deployment"), "spec")).containsEntry("replicas", 3);
        Map<String, Object> container = container();
        assertThat(container.get("args")).isEqualTo(List.of(
                "serve", "--config", "/etc/lakesync/lakesync.yaml", "--set", "cluster.instance-id=$(POD_NAME)"));
        assertThat(String.valueOf(container.get("env"))).doesNotContain("secretKeyRef");
    }

    @Test
    void theSecretsPlaceholderTokensAreRefusedAtStart() throws IOException {
        String tokens = secretData().get("auth-tokens");
        LakeSyncConfig config = LakeSyncConfig.fromMap(Map.of("auth.tokens", tokens), "test");
        assertThatThrownBy(() -> Authenticator.fromConfig(config))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Entry 1 of config key 'auth.tokens' (token 'ops') still holds a placeholder")
                .hasMessageNotContaining(tokens.split(",")[0].split(":")[2]);
    }

    private static void flatten(String prefix, Map<?, ?> map, Map<String, String> out) {
        map.forEach((key, value) -> {
            if (value instanceof Map<?, ?> nested) {
                flatten(prefix + key + ".", nested, out);
            } else {
                out.put(prefix + key, String.valueOf(value));
            }
        });
    }
}
