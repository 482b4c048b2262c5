package io.lakesync.tiering.lake;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HadoopConfigFilesTest {

    private final ClassLoader appLoader = getClass().getClassLoader();

    @Test
    void hadoopConfigurationReadsTheSameDefaultsThroughTheCopies() throws Exception {
        Map<String, String> direct = propertiesWithContextLoader(appLoader);
        Map<String, String> copied = propertiesWithContextLoader(HadoopConfigFiles.over(appLoader));

        assertThat(direct).containsKey("fs.defaultFS").hasSizeGreaterThan(100);
        assertThat(copied).isEqualTo(direct);
    }

    @Test
    void looksAConfigFileUpOnceAndServesItsBytes() throws Exception {
        ClassLoader loader = HadoopConfigFiles.over(appLoader);

        URL first = loader.getResource("core-default.xml");
        assertThat(loader.getResource("core-default.xml")).isSameAs(first);
        try (var copy = first.openStream(); var original = appLoader.getResource("core-default.xml").openStream()) {
            String copied = new String(copy.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(copied).contains("<name>fs.defaultFS</name>").doesNotContain("<description>", "<!--");
            assertThat(copied.length()).isLessThan(original.readAllBytes().length / 2);
        }
        assertThat(loader.getResource("no-such-site.xml")).isNull();
    }

    @Test
    void aSiteFileIsReadFromWhereItIsEveryTime(@TempDir Path conf) throws Exception {
        Path site = conf.resolve("core-site.xml");
        Files.writeString(site, "<configuration><property><name>lakesync.test</name><value>1</value></property>"
                + "<!-- kept --></configuration>");
        try (URLClassLoader withSite = new URLClassLoader(new URL[] {conf.toUri().toURL()}, appLoader)) {
            ClassLoader loader = HadoopConfigFiles.over(withSite);

            URL found = loader.getResource("core-site.xml");
            assertThat(found).isEqualTo(site.toUri().toURL());
            assertThat(loader.getResource("core-site.xml")).isSameAs(found);
            assertThat(propertiesWithContextLoader(loader)).containsEntry("lakesync.test", "1");
        }
    }

    @Test
    void everythingElseComesFromTheParent() throws Exception {
        ClassLoader loader = HadoopConfigFiles.over(appLoader);

        assertThat(HadoopConfigFiles.over(appLoader)).isSameAs(loader);
        assertThat(HadoopConfigFiles.over(loader)).isSameAs(loader);
        assertThat(loader.loadClass(Configuration.class.getName())).isSameAs(Configuration.class);
        assertThat(loader.getResource("META-INF/MANIFEST.MF")).isEqualTo(appLoader.getResource("META-INF/MANIFEST.MF"));
        assertThat(HadoopConfigFiles.isHadoopConfigFile("conf/core-site.xml")).isFalse();
    }

    private static Map<String, String> propertiesWithContextLoader(ClassLoader loader) throws Exception {
        Map<String, String> properties = new TreeMap<>();
        Thread thread = new Thread(() -> new Configuration().forEach(e -> properties.put(e.getKey(), e.getValue())));
        thread.setContextClassLoader(loader);
        thread.start();
        thread.join();
        return properties;
    }
}
