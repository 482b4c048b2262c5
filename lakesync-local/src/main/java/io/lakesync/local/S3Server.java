package io.lakesync.local;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.TransientApiMetadata;

/**
 * An S3-compatible object store on 127.0.0.1, kept in a local folder: S3Proxy in front of jclouds' in-memory
 * blob store, written through to the folder ({@link PersistedBlobStore}). The local stack's {@code --lake s3} warehouse lives here, and the tests use it as a real S3 endpoint
 * (real HTTP, signed requests, object semantics: no atomic rename, no directories).
 *
 * <p>Its keys are made at start and only guard a loopback port; a production lake names its own.
 */
public final class S3Server implements AutoCloseable {

    private static final String HOST = "127.0.0.1";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final S3Proxy proxy;
    private final BlobStoreContext store;
    private final BlobStore objects;
    private final String accessKey;
    private final String secretKey;
    private final S3Faults faults;

    private S3Server(S3Proxy proxy, BlobStoreContext store, BlobStore objects, String accessKey, String secretKey,
            S3Faults faults) {
        this.proxy = proxy;
        this.faults = faults;
        this.store = store;
        this.objects = objects;
        this.accessKey = accessKey;
        this.secretKey = secretKey;
    }

    /** Starts a server keeping its buckets under {@code dir}, listening on {@code port} (0 picks a free one). */
    public static S3Server start(Path dir, int port) throws Exception {
        BlobStoreContext store = ContextBuilder.newBuilder(new TransientApiMetadata())
                .credentials("local", "local")
                .buildView(BlobStoreContext.class);
        PersistedBlobStore objects;
        try {
            objects = PersistedBlobStore.load(store.getBlobStore(), dir);
        } catch (IOException | RuntimeException e) {
            store.close();
            throw e;
        }
        String accessKey = "local-" + randomHex(8);
        String secretKey = randomHex(20);
        S3Faults faults = new S3Faults();
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(faults.guard(objects))
                .endpoint(URI.create("http://" + HOST + ":" + port))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, accessKey, secretKey)
                .build();
        S3Server server = new S3Server(proxy, store, objects, accessKey, secretKey, faults);
        try {
            proxy.start();
            long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
            while (!"STARTED".equals(proxy.getState())) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("The S3 server on " + HOST + ":" + port + " did not start within "
                            + START_TIMEOUT.toSeconds() + " s (state " + proxy.getState() + ").");
                }
                Thread.sleep(10);
            }
        } catch (Exception | Error e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** The switch that makes this server's requests fail or slow (off until turned on). */
    public S3Faults faults() {
        return faults;
    }

    /** Creates {@code bucket} if it does not exist yet. */
    public void createBucket(String bucket) {
        objects.createContainerInLocation(null, bucket);
    }

    /** The endpoint clients use, {@code http://127.0.0.1:PORT}. */
    public String endpoint() {
        return "http://" + HOST + ":" + port();
    }

    public int port() {
        return proxy.getPort();
    }

    public String accessKey() {
        return accessKey;
    }

    public String secretKey() {
        return secretKey;
    }

    /**
     * Paimon catalog options for a filesystem warehouse at {@code s3://bucket/path} on this server (prefix them
     * with {@code datalake.paimon.} in lakesync's configuration); Paimon's S3 file system passes {@code s3.*} on to
     * Hadoop's S3A.
     */
    public Map<String, String> catalogOptions(String bucket, String path) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("warehouse", "s3://" + bucket + "/" + path);
        options.putAll(fileSystemOptions());
        return options;
    }

    /** The {@code s3.*} options that reach this server: endpoint, keys, path-style addressing. */
    public Map<String, String> fileSystemOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("s3.endpoint", endpoint());
        options.put("s3.access-key", accessKey);
        options.put("s3.secret-key", secretKey);
        options.put("s3.path.style.access", "true");
        return options;
    }

    @Override
    public void close() throws Exception {
        try {
            proxy.stop();
        } finally {
            store.close();
        }
    }

    private static String randomHex(int bytes) {
        byte[] random = new byte[bytes];
        new SecureRandom().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }
}
