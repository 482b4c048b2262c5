package io.lakesync.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.domain.Blob;
import org.jclouds.blobstore.domain.MultipartPart;
import org.jclouds.blobstore.domain.MultipartUpload;
import org.jclouds.blobstore.options.CopyOptions;
import org.jclouds.blobstore.options.PutOptions;
import org.jclouds.blobstore.util.ForwardingBlobStore;
import org.jclouds.domain.Location;

/**
 * An in-memory blob store whose objects are also written through to a folder, one file per object, and read back
 * at start. The memory store answers every request with exact object semantics (the keys {@code a/b} and
 * {@code a/b/} are two objects; a prefix is not a directory), which Hadoop's S3A relies on and a folder-backed
 * store cannot give; the folder only makes the objects outlive the process.
 *
 * <pre>
 *   dir/&lt;bucket&gt;/&lt;URL-encoded key&gt;   the object's bytes (written to a temporary file, then moved in place)
 * </pre>
 *
 * Only the bytes are kept across restarts, not user metadata: Paimon and S3A need none.
 */
final class PersistedBlobStore extends ForwardingBlobStore {

    private static final String PARTIAL_SUFFIX = ".partial";

    private final Path dir;

    private PersistedBlobStore(BlobStore memory, Path dir) {
        super(memory);
        this.dir = dir;
    }

    /** Wraps {@code memory} (empty) and loads every object kept under {@code dir} into it. */
    static PersistedBlobStore load(BlobStore memory, Path dir) throws IOException {
        Files.createDirectories(dir);
        try (Stream<Path> buckets = Files.list(dir)) {
            for (Path bucket : buckets.filter(Files::isDirectory).toList()) {
                String name = bucket.getFileName().toString();
                memory.createContainerInLocation(null, name);
                try (Stream<Path> objects = Files.list(bucket)) {
                    for (Path object : objects.toList()) {
                        String file = object.getFileName().toString();
                        if (file.endsWith(PARTIAL_SUFFIX)) {
                            Files.delete(object);
                            continue;
                        }
                        memory.putBlob(name, memory.blobBuilder(decode(file)).payload(Files.readAllBytes(object)).build());
                    }
                }
            }
        }
        return new PersistedBlobStore(memory, dir);
    }

    @Override
    public boolean createContainerInLocation(Location location, String container) {
        createFolder(container);
        return super.createContainerInLocation(location, container);
    }

    @Override
    public boolean createContainerInLocation(
            Location location, String container, org.jclouds.blobstore.options.CreateContainerOptions options) {
        createFolder(container);
        return super.createContainerInLocation(location, container, options);
    }

    @Override
    public String putBlob(String container, Blob blob) {
        return putBlob(container, blob, PutOptions.NONE);
    }

    @Override
    public String putBlob(String container, Blob blob, PutOptions options) {
        byte[] bytes = bytesOf(blob);
        write(container, blob.getMetadata().getName(), bytes);
        blob.setPayload(bytes);
        return super.putBlob(container, blob, options);
    }

    @Override
    public String copyBlob(
            String fromContainer, String fromName, String toContainer, String toName, CopyOptions options) {
        String etag = super.copyBlob(fromContainer, fromName, toContainer, toName, options);
        persistCurrent(toContainer, toName);
        return etag;
    }

    @Override
    public String completeMultipartUpload(MultipartUpload upload, List<MultipartPart> parts) {
        String etag = super.completeMultipartUpload(upload, parts);
        persistCurrent(upload.containerName(), upload.blobName());
        return etag;
    }

    @Override
    public void removeBlob(String container, String name) {
        super.removeBlob(container, name);
        delete(container, name);
    }

    @Override
    public void removeBlobs(String container, Iterable<String> names) {
        super.removeBlobs(container, names);
        names.forEach(name -> delete(container, name));
    }

    /** Writes what the memory store now holds under {@code name} (made by the store itself, not by a put). */
    private void persistCurrent(String container, String name) {
        Blob blob = super.getBlob(container, name);
        if (blob != null) {
            write(container, name, bytesOf(blob));
        }
    }

    private void createFolder(String container) {
        try {
            Files.createDirectories(dir.resolve(container));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void write(String container, String name, byte[] bytes) {
        Path target = dir.resolve(container).resolve(encode(name));
        Path partial = target.resolveSibling(target.getFileName() + PARTIAL_SUFFIX);
        try {
            Files.write(partial, bytes);
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot keep object " + name + " of bucket " + container + " in " + dir, e);
        }
    }

    private void delete(String container, String name) {
        try {
            Files.deleteIfExists(dir.resolve(container).resolve(encode(name)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] bytesOf(Blob blob) {
        try (InputStream in = blob.getPayload().openStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // Keys hold '/', and S3A makes both 'a/b' and 'a/b/': one flat file name per key keeps them apart.
    private static String encode(String key) {
        return URLEncoder.encode(key, StandardCharsets.UTF_8);
    }

    private static String decode(String file) {
        return URLDecoder.decode(file, StandardCharsets.UTF_8);
    }
}
