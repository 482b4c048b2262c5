package io.lakesync.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.auth.Authenticator;
import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * The shipped Kubernetes manifests (deploy/kubernetes): they parse; the ConfigMap's lakesync.yaml loads through
 * lakesync's own config loader, every key known, its secrets read from the Secret's keys as the Deployment mounts
 * them; no secret is on the Deployment's command line; the Secret's placeholder tokens are refused.
 */
class DeployManifestsTest {

    private static final Path MANIFESTS = Path.of("..", "deploy", "kubernetes");

    @TempDir Path mountedSecrets;

    @Test
    void everyManifestParsesAsKubernetesObjects() throws IOException {
        List<Map<String, Object>> objects = objects();
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
        for (Map.Entry<String, String> entry : stringData.entrySet()) {
            Files.writeString(mountedSecrets.resolve(entry.getKey()), entry.getValue());
        }
        String yaml = lakesyncYaml();
        Path config = Files.writeString(mountedSecrets.resolve("lakesync.yaml"),
                yaml.replace(secretMountPath() + "/", mountedSecrets + "/"));

        LakeSyncConfig loaded = LakeSyncConfig.load(config, Map.of("cluster.instance-id", "lakesync-0"));

        assertThat(loaded.get(LakeSyncOptions.AUTH_TOKENS).value()).isEqualTo(stringData.get("auth-tokens"));
        assertThat(loaded.get(LakeSyncOptions.STATE_JDBC_PASSWORD).value()).isEqualTo(stringData.get("state-password"));
        assertThat(loaded.get(LakeSyncOptions.STATE_JDBC_URL)).startsWith("jdbc:postgresql://");
        assertThat(loaded.get(LakeSyncOptions.METRICS_REQUIRE_TOKEN)).isTrue();
        assertThat(loaded.lakeCatalogOptions())
                .containsEntry("metastore", "jdbc")
                .containsEntry("uri", loaded.get(LakeSyncOptions.STATE_JDBC_URL))
                .containsEntry("lock.enabled", "true")
                .containsEntry("jdbc.password", stringData.get("state-password"))
                .containsEntry("s3.access-key", stringData.get("s3-access-key"))
                .containsEntry("s3.secret-key", stringData.get("s3-secret-key"))
                .hasEntrySatisfying("warehouse", warehouse -> assertThat(warehouse).startsWith("s3://"));
        Map<String, String> given = new LinkedHashMap<>();
        flatten("", new Yaml().load(yaml), given);
        String fromSecret = "@" + secretMountPath() + "/";
        given.forEach((key, value) -> {
            if (LakeSyncOptions.isSecret(key)) {
                assertThat(value).as("secret config key %s comes from the mounted Secret", key).startsWith(fromSecret);
            }
        });
    }

    @Test
    void theDeploymentRunsThreeInstancesWithNoSecretOnTheCommandLine() throws IOException {
        Map<String, Object> spec = map(object("Deployment"), "spec");
        assertThat(spec).containsEntry("replicas", 3);
        Map<String, Object> container = container();
        assertThat(container.get("args")).isEqualTo(List.of(
                "serve", "--config", "/etc/lakesync/lakesync.yaml", "--set", "cluster.instance-id=$(POD_NAME)"));
        assertThat(String.valueOf(container.get("env"))).doesNotContain("secretKeyRef");
    }

    @Test
    void theSecretsPlaceholderTokensAreRefusedAtStart() throws IOException {
        String tokens = secretData().get("auth-tokens");
        assertThatThrownBy(() -> Authenticator.fromConfig(LakeSyncConfig.fromMap(Map.of("auth.tokens", tokens), "test")))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Entry 1 of config key 'auth.tokens' (token 'ops') still holds a placeholder")
                .hasMessageNotContaining(tokens.split(",")[0].split(":")[2]);
    }

    /** The Secret's keys and values. */
    @SuppressWarnings("unchecked")
    private static Map<String, String> secretData() throws IOException {
        return (Map<String, String>) object("Secret").get("stringData");
    }

    private static String lakesyncYaml() throws IOException {
        return (String) map(object("ConfigMap"), "data").get("lakesync.yaml");
    }

    /** Where the Deployment mounts the Secret. */
    private static String secretMountPath() throws IOException {
        Map<String, Object> podSpec = map(map(map(object("Deployment"), "spec"), "template"), "spec");
        String volume = null;
        for (Map<String, Object> candidate : list(podSpec, "volumes")) {
            if (candidate.containsKey("secret")) {
                assertThat(map(candidate, "secret")).containsEntry("secretName", "lakesync");
                volume = (String) candidate.get("name");
            }
        }
        for (Map<String, Object> mount : list(container(), "volumeMounts")) {
            if (mount.get("name").equals(volume)) {
                return (String) mount.get("mountPath");
            }
        }
        throw new AssertionError("The Deployment mounts no Secret volume");
    }

    private static Map<String, Object> container() throws IOException {
        Map<String, Object> podSpec = map(map(map(object("Deployment"), "spec"), "template"), "spec");
        return list(podSpec, "containers").get(0);
    }

    private static Map<String, Object> object(String kind) throws IOException {
        return objects().stream().filter(object -> kind.equals(object.get("kind"))).findFirst()
                .orElseThrow(() -> new AssertionError("No " + kind + " in " + MANIFESTS));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> objects() throws IOException {
        List<Map<String, Object>> objects = new ArrayList<>();
        try (Stream<Path> files = Files.list(MANIFESTS)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                new Yaml().loadAll(Files.readString(file)).forEach(document -> objects.add((Map<String, Object>) document));
            }
        }
        return objects;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> parent, String key) {
        return (Map<String, Object>) parent.get(key);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Map<String, Object> parent, String key) {
        return (List<Map<String, Object>>) parent.get(key);
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
