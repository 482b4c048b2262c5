package io.lakesync.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.yaml.snakeyaml.Yaml;

/** The shipped Kubernetes manifests (deploy/kubernetes) read for the tests, their config set up on this machine. */
final class DeployManifests {

    private static final Path MANIFESTS = Path.of("..", "deploy", "kubernetes");

    private DeployManifests() {}

    /** Every object of every manifest file. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> objects() throws IOException {
        List<Map<String, Object>> objects = new ArrayList<>();
        try (Stream<Path> files = Files.list(MANIFESTS)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                new Yaml().loadAll(Files.readString(file))
                        .forEach(document -> objects.add((Map<String, Object>) document));
            }
        }
        return objects;
    }

    static Map<String, Object> object(String kind) throws IOException {
        return objects().stream().filter(object -> kind.equals(object.get("kind"))).findFirst()
                .orElseThrow(() -> new AssertionError("No " + kind + " in " + MANIFESTS));
    }

    /** The Secret's keys and values. */
    @SuppressWarnings("unchecked")
    static Map<String, String> secretData() throws IOException {
        return (Map<String, String>) object("Secret").get("stringData");
    }

    /** The ConfigMap's lakesync.yaml. */
    static String lakesyncYaml() throws IOException {
        return (String) map(object("ConfigMap"), "data").get("lakesync.yaml");
    }

    static Map<String, Object> container() throws IOException {
        return list(podSpec(), "containers").get(0);
    }

    /** Where the Deployment mounts the Secret. */
    static String secretMountPath() throws IOException {
        String volume = null;
        for (Map<String, Object> candidate : list(podSpec(), "volumes")) {
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

    /**
     * The ConfigMap's lakesync.yaml written to {@code dir}, as a pod would see it: {@code secrets} (one value per
     * key of the Secret) written as files where the Secret is mounted, here {@code dir/secrets}; each of
     * {@code replacements}' keys (host names of the manifests) replaced by its value.
     */
    static Path configFile(Path dir, Map<String, String> secrets, Map<String, String> replacements) throws IOException {
        assertThat(secrets.keySet()).as("the Secret's keys").isEqualTo(secretData().keySet());
        Path mounted = Files.createDirectories(dir.resolve("secrets"));
        for (Map.Entry<String, String> secret : secrets.entrySet()) {
            Files.writeString(mounted.resolve(secret.getKey()), secret.getValue());
        }
        String yaml = lakesyncYaml().replace(secretMountPath() + "/", mounted + "/");
        for (Map.Entry<String, String> replacement : replacements.entrySet()) {
            assertThat(yaml).as("the ConfigMap's lakesync.yaml").contains(replacement.getKey());
            yaml = yaml.replace(replacement.getKey(), replacement.getValue());
        }
        return Files.writeString(dir.resolve("lakesync.yaml"), yaml);
    }

    static Map<String, Object> podSpec() throws IOException {
        return map(map(map(object("Deployment"), "spec"), "template"), "spec");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Map<String, Object> parent, String key) {
        return (Map<String, Object>) parent.get(key);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> list(Map<String, Object> parent, String key) {
        return (List<Map<String, Object>>) parent.get(key);
    }
}
