package io.lakesync.fluss;

import io.lakesync.fluss.BucketHeads;
import io.lakesync.fluss.ReconnectingConnection;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.metadata.MetadataUpdater;
import org.apache.fluss.cluster.BucketLocation;
import org.apache.fluss.cluster.Cluster;
import org.apache.fluss.exception.ApiException;
import org.apache.fluss.exception.LeaderNotAvailableException;
import org.apache.fluss.exception.RetriableException;
import org.apache.fluss.metadata.PhysicalTablePath;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.rpc.gateway.TabletServerGateway;
import org.apache.fluss.rpc.messages.ListOffsetsRequest;
import org.apache.fluss.rpc.messages.ListOffsetsResponse;
import org.apache.fluss.rpc.messages.PbListOffsetsRespForBucket;
import org.apache.fluss.rpc.protocol.ApiError;

/**
 * The latest offsets (high watermarks) of a table's buckets, asked of their leaders directly: one ListOffsets
 * request per leader, the leaders taken from the client's metadata cache.
 *
 * <p>Why not {@code Admin#listOffsets}: in Fluss 0.9.1 every call first refreshes the table's metadata, holding
 * the client's metadata lock for the whole round trip, and asks for the table info again, so each round paid
 * two more round trips before its offsets, and the instance's concurrent rounds queued on that lock. It also
 * never completes the offsets of a leader whose request failed (its future has no failure path), which would
 * leave a round waiting forever. Here the metadata is refreshed only for a table or leader the cache does not
 * know, or after a leader refused or failed; every other failure, and the last attempt's, fails the call.
 */
public final class LatestOffsets {

    /** Attempts per call; each one after the first refreshes the table's metadata first. */
    static final int MAX_ATTEMPTS = 3;

    private final Connection connection;

    private LatestOffsets(Connection connection) {
        this.connection = connection;
    }

    /**
     * The offsets of {@code connection}'s cluster, or null when it is not a direct Fluss connection. Does not
     * connect: an instance starts while its cluster is unreachable.
     */
    public static @Nullable LatestOffsets of(Connection connection) {
        return connection instanceof FlussConnection || connection instanceof ReconnectingConnection
                ? new LatestOffsets(connection)
                : null;
    }

    /**
     * The latest offset of each of {@code buckets} of table {@code tableId} ({@code path}), of partition
     * {@code partitionId} or of the table when it is null.
     */
    public Map<Integer, Long> highWatermarks(TablePath path, long tableId, @Nullable Long partitionId, Collection<Integer> buckets)
            throws Exception {
        MetadataUpdater metadata = BucketHeads.metadataOf(connection);
        for (int attempt = 1; ; attempt++) {
            try {
                if (attempt > 1) {
                    refresh(metadata, path, partitionId);
                }
                return ask(metadata, path, tableId, partitionId, buckets);
            } catch (InterruptedException e) {
                // The round is being stopped: not a failure to try again.
                throw e;
            } catch (Exception e) {
                Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                if (attempt >= MAX_ATTEMPTS || (cause instanceof ApiException && !(cause instanceof RetriableException))) {
                    throw cause instanceof Exception exception ? exception : e;
                }
            }
        }
    }

    /**
     * The high watermarks of table {@code tableId} when the client's metadata shows it at {@code path} with
     * buckets of its own, all with a leader: those buckets, asked for without the table's info. Empty when the
     * metadata shows the path under another id, a table with partitions (its buckets are the partitions') or a
     * bucket without a leader.
     */
    public Optional<Map<Integer, Long>> unpartitionedHighWatermarks(TablePath path, long tableId) throws Exception {
        MetadataUpdater metadata = BucketHeads.metadataOf(connection);
        metadata.checkAndUpdateTableMetadata(Set.of(path));
        Cluster cluster = metadata.getCluster();
        if (!cluster.getTableId(path).equals(Optional.of(tableId))) {
            return Optional.empty();
        }
        List<Integer> buckets = cluster.getAvailableBucketsForPhysicalTablePath(PhysicalTablePath.of(path)).stream()
                .map(BucketLocation::getBucketId)
                .sorted()
                .toList();
        return buckets.isEmpty() ? Optional.empty() : Optional.of(highWatermarks(path, tableId, null, buckets));
    }

    private static Map<Integer, Long> ask(
            MetadataUpdater metadata, TablePath path, long tableId, @Nullable Long partitionId, Collection<Integer> buckets)
            throws Exception {
        // The table first: the client finds a partition's table by its id in the metadata it already has.
        metadata.checkAndUpdateTableMetadata(Set.of(path));
        if (partitionId != null) {
            metadata.checkAndUpdatePartitionMetadata(path, List.of(partitionId));
        }
        Map<Integer, List<Integer>> bucketsByLeader = new HashMap<>();
        for (int bucket : buckets) {
            int leader = metadata.leaderFor(path, new TableBucket(tableId, partitionId, bucket));
            bucketsByLeader.computeIfAbsent(leader, l -> new ArrayList<>()).add(bucket);
        }
        Map<Integer, CompletableFuture<ListOffsetsResponse>> answers = new HashMap<>();
        bucketsByLeader.forEach((leader, ids) -> {
            TabletServerGateway gateway = metadata.newTabletServerClientForNode(leader);
            answers.put(leader, gateway == null
                    ? CompletableFuture.failedFuture(new LeaderNotAvailableException(
                            "Tablet server " + leader + ", the leader of buckets " + ids + " of " + path
                                    + ", is not in the client's metadata."))
                    : gateway.listOffsets(request(tableId, partitionId, ids)));
        });
        Map<Integer, Long> offsets = new HashMap<>();
        for (CompletableFuture<ListOffsetsResponse> answer : answers.values()) {
            for (PbListOffsetsRespForBucket bucket :
                    answer.get(Deadline.ROUND_REQUEST.toMillis(), TimeUnit.MILLISECONDS).getBucketsRespsList()) {
                if (bucket.hasErrorCode()) {
                    throw ApiError.fromErrorMessage(bucket).exception();
                }
                offsets.put(bucket.getBucketId(), bucket.getOffset());
            }
        }
        if (!offsets.keySet().containsAll(buckets)) {
            throw new IllegalStateException("The leaders of " + path + " answered for buckets " + offsets.keySet()
                    + " when asked for " + buckets + ".");
        }
        return offsets;
    }

    /** Asks the cluster again where the table's (and the partition's) buckets are. */
    private static void refresh(MetadataUpdater metadata, TablePath path, @Nullable Long partitionId) {
        metadata.updateTableOrPartitionMetadata(path, null);
        if (partitionId != null) {
            metadata.updateTableOrPartitionMetadata(path, partitionId);
        }
    }

    private static ListOffsetsRequest request(long tableId, @Nullable Long partitionId, List<Integer> buckets) {
        ListOffsetsRequest request = new ListOffsetsRequest()
                .setFollowerServerId(-1) // a client, not a follower: the answer is the high watermark
                .setTableId(tableId)
                .setOffsetType(OffsetSpec.LIST_LATEST_OFFSET)
                .setBucketIds(buckets.stream().mapToInt(Integer::intValue).toArray());
        if (partitionId != null) {
            request.setPartitionId(partitionId);
        }
        return request;
    }
}
