package io.lakesync.fluss.tiering;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.fs.FileSystem;
import org.apache.fluss.fs.FsPath;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.utils.json.TableBucketOffsets;

/** The offsets files the coordinator writes for lake snapshots, read through Fluss's file systems. */
public final class OffsetsFiles {

    private OffsetsFiles() {}

    /**
     * The bucket offsets the file at {@code offsetsPath} holds; empty when the file is gone. Throws when it cannot
     * be read for another reason: this process has no file system for Fluss's remote storage, or no access.
     */
    public static Optional<Map<TableBucket, Long>> read(String offsetsPath) throws IOException {
        FsPath path = new FsPath(offsetsPath);
        FileSystem files = path.getFileSystem();
        if (!files.exists(path)) {
            return Optional.empty();
        }
        try (InputStream in = files.open(path)) {
            return Optional.of(TableBucketOffsets.fromJsonBytes(in.readAllBytes()).getOffsets());
        }
    }
}
