package io.lakesync.verify;

import java.io.PrintWriter;
import java.util.List;

/**
 * The verification of one table: per bucket lake offset against Fluss, and the differences found, the first
 * {@link TableVerifier#MAX_DIFFERENCES} of them spelled out.
 *
 * @param kind "log", "primary key", with ", partitioned" where so
 * @param lakeSnapshotId the lake snapshot verified, -1 when nothing was tiered yet
 * @param differences table-level differences (primary-key rows); bucket-level ones are in {@code buckets}
 * @param summary what was checked, for the OK line
 */
public record TableReport(
        String table, String kind, long lakeSnapshotId, List<BucketReport> buckets, List<String> differences,
        String summary) {

    public boolean ok() {
        return differences.isEmpty() && buckets.stream().allMatch(BucketReport::ok);
    }

    /** Rows the lake snapshot holds (keys, for a primary-key table). */
    public long lakeRows() {
        return buckets.stream().mapToLong(BucketReport::lakeRows).sum();
    }

    /** The per-bucket listing, the differences, and one closing line: {@code OK} or {@code DIFFERENT}. */
    public void print(PrintWriter out) {
        out.printf("%s (%s, lake snapshot %s)%n", table, kind, lakeSnapshotId < 0 ? "none" : lakeSnapshotId);
        if (!buckets.isEmpty()) {
            out.printf("  %-24s %12s %12s %10s %10s  %s%n", "BUCKET", "LAKE OFFSET", "FLUSS END", "PENDING", "LAKE ROWS",
                    "CHECK");
            for (BucketReport bucket : buckets) {
                out.printf("  %-24s %12d %12d %10d %10d  %s%n", bucket.bucket(), bucket.lakeOffset(),
                        bucket.flussEndOffset(), bucket.pending(), bucket.lakeRows(),
                        bucket.ok() ? "ok" : String.join("; ", bucket.problems()));
            }
        }
        differences.forEach(d -> out.println("  " + d));
        out.println(table + ": " + (ok() ? "OK, " + summary : "DIFFERENT, " + summary));
    }
}
