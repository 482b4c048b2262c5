package io.lakesync.tiering.lake;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLConnection;
import java.net.URLStreamHandler;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Context class loader for lakesync's tiering threads that looks Hadoop's configuration files
 * ({@code *-default.xml}, {@code *-site.xml}) up on the classpath once, and serves the defaults from memory.
 *
 * <p>Why: after writing each Parquet file Paimon reads its footer back for column statistics, and every such
 * read builds a new Hadoop {@code Configuration}. That looks its default resources up through the thread's
 * context class loader (a miss such as {@code core-site.xml} scans every jar) and opens the hit with jar caches
 * turned off, so the jar's directory is read again per file. With small files (many small tables, frequent
 * rounds) that was the largest single cost of the engine. The {@code *-default.xml} files Hadoop ships are served
 * from memory without comments and descriptions (which {@code Configuration} ignores), so every property and its
 * value is unchanged. A {@code *-site.xml} is the operator's: only where it is (or that it is absent) is
 * remembered, and it is read from there every time, so its relative XIncludes keep working. Every other resource
 * and every class comes from the parent.
 */
public final class HadoopConfigFiles extends ClassLoader {

    private static final String PROTOCOL = "lakesync-classpath-copy";
    private static final String DEFAULTS_SUFFIX = "-default.xml";
    private static final String SITE_SUFFIX = "-site.xml";
    private static final Map<ClassLoader, HadoopConfigFiles> BY_PARENT = new ConcurrentHashMap<>();

    private static final Pattern PROSE = Pattern.compile("<!--.*?-->|<description>.*?</description>", Pattern.DOTALL);

    private final Map<String, Optional<URL>> resources = new ConcurrentHashMap<>();

    private HadoopConfigFiles(ClassLoader parent) {
        super(parent);
    }

    /** The loader to install as a tiering thread's context class loader, delegating to {@code parent}. */
    public static ClassLoader over(ClassLoader parent) {
        if (parent == null || parent instanceof HadoopConfigFiles) {
            return parent;
        }
        return BY_PARENT.computeIfAbsent(parent, HadoopConfigFiles::new);
    }

    @Override
    public URL getResource(String name) {
        if (!isHadoopConfigFile(name)) {
            return super.getResource(name);
        }
        return resources.computeIfAbsent(name, this::find).orElse(null);
    }

    private Optional<URL> find(String name) {
        return name.endsWith(DEFAULTS_SUFFIX) ? copyOf(name) : Optional.ofNullable(getParent().getResource(name));
    }

    static boolean isHadoopConfigFile(String name) {
        return name.indexOf('/') < 0 && (name.endsWith(DEFAULTS_SUFFIX) || name.endsWith(SITE_SUFFIX));
    }

    private Optional<URL> copyOf(String name) {
        URL original = getParent().getResource(name);
        if (original == null) {
            return Optional.empty();
        }
        try (InputStream in = original.openStream()) {
            byte[] bytes = withoutProse(in.readAllBytes());
            return Optional.of(new URL(PROTOCOL, null, -1, "/" + name, new BytesHandler(bytes)));
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + original, e);
        }
    }

    /**
     * The file without comments and property descriptions, which {@code Configuration} skips anyway: most of
     * core-default.xml's 150 KB, parsed again for every {@code Configuration}.
     */
    static byte[] withoutProse(byte[] xml) {
        String text = new String(xml, StandardCharsets.UTF_8);
        String stripped = PROSE.matcher(text).replaceAll("");
        return stripped.getBytes(StandardCharsets.UTF_8);
    }

    /** Serves one resource's bytes. */
    private static final class BytesHandler extends URLStreamHandler {
        private final byte[] bytes;

        BytesHandler(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        protected URLConnection openConnection(URL url) {
            return new URLConnection(url) {
                @Override
                public void connect() {
                    connected = true;
                }

                @Override
                public InputStream getInputStream() {
                    return new ByteArrayInputStream(bytes);
                }
            };
        }
    }
}
