package io.lakesync.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The version of this lakesync build, written into a resource by Maven at build time. */
public final class LakeSyncVersion {

    private static final String RESOURCE = "lakesync-version.properties";
    private static final String VERSION = load();

    private LakeSyncVersion() {}

    public static String get() {
        return VERSION;
    }

    private static String load() {
        Properties properties = new Properties();
        try (InputStream in = LakeSyncVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("Resource " + RESOURCE + " is missing from the build.");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties.getProperty("version");
    }
}
