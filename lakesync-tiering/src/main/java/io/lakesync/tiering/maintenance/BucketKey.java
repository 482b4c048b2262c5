package io.lakesync.tiering.maintenance;

import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.manifest.ManifestEntry;

/** One bucket of one partition of a Paimon table. */
record BucketKey(BinaryRow partition, int bucket) {

    static BucketKey of(ManifestEntry entry) {
        return new BucketKey(entry.partition(), entry.bucket());
    }
}
