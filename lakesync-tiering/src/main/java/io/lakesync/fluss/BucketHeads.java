package io.lakesync.fluss;

import io.lakesync.fluss.Deadline;
import io.lakesync.fluss.ReconnectingConnection;
import io.lakesync.errors.ErrorMessages;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import javax.annotation.Nullable;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.metadata.MetadataUpdater;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.record.LogRecordBatch;
import org.apache.fluss.rpc.entity.FetchLogResultForBucket;
import org.apache.fluss.rpc.gateway.TabletServerGateway;
import org.apache.fluss.rpc.messages.FetchLogRequest;
import org.apache.fluss.rpc.messages.FetchLogResponse;
import org.apache.fluss.rpc.messages.PbFetchLogReqForBucket;
import org.apache.fluss.rpc.messages.PbFetchLogRespForBucket;
import org.apache.fluss.rpc.messages.PbFetchLogRespForTable;
import org.apache.fluss.rpc.protocol.Errors;
import org.apache.fluss.rpc.util.CommonRpcMessageUtils;

/**
 * Where the logs of many buckets, of any number of tables, stand, read with one fetch RPC per tablet server: each
 * bucket's high watermark (its end offset for readers) and, where asked, when the record at a given offset was
 * appended. That time is the commit timestamp in the header of the batch holding the record (Fluss gives every record
 * of a batch its batch's timestamp), so no row is decoded and no schema is needed.
 *
 * <p>A bucket may take at most {@link #BUCKET_BYTES} of the shared fetch, so a response stays small however busy the
 * logs are. The server sends whole batches only, and once it sent one it leaves out a batch bigger than the bucket's
 * share, so a bucket whose batch at the offset did not fit is asked again on its own, when the server always sends the
 * first batch. A bucket whose leader moved is asked again once, after one metadata refresh for all of them. Every
 * wait ends at the caller's deadline: a tablet server that does not answer fails its buckets, never hangs the caller.
 */
public final class BucketHeads {

    /** What one bucket may take of a shared fetch: many small batches of a trickle, one or two of a busy log. */
    private static final int BUCKET_BYTES = 16 * 1024;
    /** The most a shared fetch asks for; buckets left out are asked again alone. */
    private static final int MAX_FETCH_BYTES = 8 * 1024 * 1024;

    /** A bucket to read, and the offset whose record's append time is wanted ({@code timestampWanted}). */
    public record Ask(TablePath table, TableBucket bucket, long offset, boolean timestampWanted) {}

    /**
     * What a bucket's leader said: its high watermark ({@code -1} when the offset is not in the leader's log, for
     * example a log truncated before it), and when the record at the offset was appended (null when not wanted,
     * when the offset is at the end, or when the record is not in the leader's local log: in remote storage or the
     * lake). {@code error} is set, and nothing else, when the bucket could not be read.
     */
    public record Head(long highWatermark, @Nullable Long appendedAt, @Nullable String error) {

        static Head failed(String error) {
            return new Head(-1, null, error);
        }
    }

    private BucketHeads() {}

    /** The metadata (and tablet server gateways) of a Fluss connection; of its current one when it reconnects. */
    public static MetadataUpdater metadataOf(Connection connection) {
        return ((FlussConnection) ReconnectingConnection.currentOf(connection)).getMetadataUpdater();
    }

    /** Reads the heads of the asked buckets; every asked bucket has a head in the result. */
    public static Map<TableBucket, Head> read(Connection connection, List<Ask> asks, Deadline deadline)
            throws InterruptedException {
        MetadataUpdater metadata = metadataOf(connection);
        Map<TableBucket, Head> heads = new HashMap<>();
        List<Ask> unknownLeader = asks.stream().filter(a -> metadata.getCluster().leaderFor(a.bucket()) == null).toList();
        refreshMetadata(metadata, unknownLeader, deadline);
        List<Ask> retry = fetchShared(metadata, asks, heads, deadline);
        if (!retry.isEmpty()) {
            refreshMetadata(metadata, retry, deadline);
            fetchShared(metadata, retry, heads, deadline).forEach(a -> heads.putIfAbsent(a.bucket(),
                    Head.failed("the leader of " + a.table() + " bucket " + a.bucket().getBucket() + " moved again")));
        }
        List<Ask> alone = asks.stream()
                .filter(a -> heads.get(a.bucket()) == null)
                .toList();
        Map<Ask, CompletableFuture<FetchLogResponse>> single = new HashMap<>();
        for (Ask ask : alone) {
            TabletServerGateway gateway = gatewayFor(metadata, ask.bucket());
            if (gateway == null) {
                heads.put(ask.bucket(), Head.failed("no leader of " + ask.table() + " is known"));
            } else {
                single.put(ask, gateway.fetchLog(request(List.of(ask), 1)));
            }
        }
        for (Map.Entry<Ask, CompletableFuture<FetchLogResponse>> fetch : single.entrySet()) {
            Ask ask = fetch.getKey();
            Map<TableBucket, Ask> one = Map.of(ask.bucket(), ask);
            collect(fetch.getValue(), one, "the leader of " + ask.table(), deadline, true)
                    .forEach(heads::put);
            heads.putIfAbsent(ask.bucket(), Head.failed("the leader of " + ask.table() + " did not answer for it"));
        }
        return heads;
    }

    /**
     * One fetch per leader for all of {@code asks}; puts the heads read, leaves out the buckets to ask again alone,
     * and returns those whose leader has to be looked up again.
     */
    private static List<Ask> fetchShared(MetadataUpdater metadata, List<Ask> asks, Map<TableBucket, Head> heads,
            Deadline deadline) throws InterruptedException {
        Map<Integer, List<Ask>> byLeader = new HashMap<>();
        for (Ask ask : asks) {
            Integer leader = metadata.getCluster().leaderFor(ask.bucket());
            if (leader == null) {
                heads.put(ask.bucket(), Head.failed("no leader of " + ask.table() + " bucket " + ask.bucket().getBucket()
                        + " is known"));
            } else {
                byLeader.computeIfAbsent(leader, l -> new ArrayList<>()).add(ask);
            }
        }
        Map<Integer, CompletableFuture<FetchLogResponse>> responses = new HashMap<>();
        byLeader.forEach((leader, buckets) -> {
            TabletServerGateway gateway = metadata.newTabletServerClientForNode(leader);
            responses.put(leader, gateway == null
                    ? CompletableFuture.failedFuture(new IllegalStateException("tablet server " + leader + " is not known"))
                    : gateway.fetchLog(request(buckets, BUCKET_BYTES)));
        });
        List<Ask> retry = new ArrayList<>();
        for (Map.Entry<Integer, CompletableFuture<FetchLogResponse>> response : responses.entrySet()) {
            Map<TableBucket, Ask> asked = new HashMap<>();
            byLeader.get(response.getKey()).forEach(a -> asked.put(a.bucket(), a));
            Map<TableBucket, Head> read =
                    collect(response.getValue(), asked, "tablet server " + response.getKey(), deadline, false);
            for (Ask ask : asked.values()) {
                Head head = read.get(ask.bucket());
                if (head == MOVED) {
                    retry.add(ask);
                } else if (head != null) {
                    heads.put(ask.bucket(), head);
                }
            }
        }
        return retry;
    }

    /** Marks a bucket whose leader has to be looked up again. */
    private static final Head MOVED = Head.failed("moved");

    /**
     * The heads in a fetch response. Left out: a bucket the server did not answer for, and ({@code alone} false) a
     * bucket whose wanted record did not fit its share.
     */
    private static Map<TableBucket, Head> collect(CompletableFuture<FetchLogResponse> response,
            Map<TableBucket, Ask> asked, String server, Deadline deadline, boolean alone) throws InterruptedException {
        Map<TableBucket, Head> heads = new HashMap<>();
        FetchLogResponse answer;
        try {
            answer = deadline.await(response, "Fluss (" + server + ", reading the log heads)");
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            String error = ErrorMessages.describe(e);
            asked.keySet().forEach(bucket -> heads.put(bucket, Head.failed(error)));
            return heads;
        }
        for (PbFetchLogRespForTable table : answer.getTablesRespsList()) {
            for (PbFetchLogRespForBucket pb : table.getBucketsRespsList()) {
                TableBucket bucket = new TableBucket(
                        table.getTableId(), pb.hasPartitionId() ? pb.getPartitionId() : null, pb.getBucketId());
                Ask ask = asked.get(bucket);
                if (ask != null) {
                    Head head = head(ask, CommonRpcMessageUtils.getFetchLogResultForBucket(bucket, ask.table(), pb), alone);
                    if (head != null) {
                        heads.put(bucket, head);
                    }
                }
            }
        }
        return heads;
    }

    @Nullable
    private static Head head(Ask ask, FetchLogResultForBucket result, boolean alone) {
        if (result.failed()) {
            Errors error = result.getError().error();
            if (error == Errors.NOT_LEADER_OR_FOLLOWER || error == Errors.LEADER_NOT_AVAILABLE_EXCEPTION
                    || error == Errors.UNKNOWN_TABLE_OR_BUCKET_EXCEPTION) {
                return alone ? Head.failed(result.getError().formatErrMsg()) : MOVED;
            }
            if (error == Errors.LOG_OFFSET_OUT_OF_RANGE_EXCEPTION) {
                return new Head(-1, null, null);
            }
            return Head.failed(result.getError().formatErrMsg());
        }
        long highWatermark = result.getHighWatermark();
        if (!ask.timestampWanted() || result.fetchFromRemote() || ask.offset() >= highWatermark) {
            return new Head(highWatermark, null, null);
        }
        for (LogRecordBatch batch : result.recordsOrEmpty().batches()) {
            if (batch.nextLogOffset() > ask.offset()) {
                return new Head(highWatermark, batch.commitTimestamp(), null);
            }
        }
        // Nothing at the offset came back: the batch did not fit the bucket's share, or the record is in the lake.
        return alone ? new Head(highWatermark, null, null) : null;
    }

    private static FetchLogRequest request(List<Ask> asks, int bucketBytes) {
        FetchLogRequest request = new FetchLogRequest()
                .setFollowerServerId(-1)
                .setMaxBytes((int) Math.min(MAX_FETCH_BYTES, (long) bucketBytes * asks.size()))
                .setMinBytes(1)
                .setMaxWaitMs(0);
        Map<Long, org.apache.fluss.rpc.messages.PbFetchLogReqForTable> tables = new HashMap<>();
        for (Ask ask : asks) {
            TableBucket bucket = ask.bucket();
            PbFetchLogReqForBucket bucketRequest = tables
                    .computeIfAbsent(bucket.getTableId(), id -> request.addTablesReq().setTableId(id)
                            .setProjectionPushdownEnabled(false))
                    .addBucketsReq()
                    .setBucketId(bucket.getBucket())
                    .setFetchOffset(Math.max(ask.offset(), 0))
                    .setMaxFetchBytes(ask.timestampWanted() ? bucketBytes : 0);
            if (bucket.getPartitionId() != null) {
                bucketRequest.setPartitionId(bucket.getPartitionId());
            }
        }
        return request;
    }

    @Nullable
    private static TabletServerGateway gatewayFor(MetadataUpdater metadata, TableBucket bucket) {
        Integer leader = metadata.getCluster().leaderFor(bucket);
        return leader == null ? null : metadata.newTabletServerClientForNode(leader);
    }

    /**
     * Looks up the leaders of the asks' tables (and partitions) with one metadata request. Fluss 0.9.1 fails a
     * whole metadata request for one table or partition it cannot serve, so when that request fails each table
     * is asked for alone, and then without its partitions; what still fails leaves its buckets without a leader.
     */
    private static void refreshMetadata(MetadataUpdater metadata, List<Ask> asks, Deadline deadline)
            throws InterruptedException {
        if (asks.isEmpty()) {
            return;
        }
        Map<TablePath, Set<Long>> partitionsByTable = new HashMap<>();
        for (Ask ask : asks) {
            Set<Long> partitions = partitionsByTable.computeIfAbsent(ask.table(), t -> new HashSet<>());
            if (ask.bucket().getPartitionId() != null) {
                partitions.add(ask.bucket().getPartitionId());
            }
        }
        Set<Long> allPartitions = new HashSet<>();
        partitionsByTable.values().forEach(allPartitions::addAll);
        if (updated(metadata, partitionsByTable.keySet(), allPartitions, deadline)) {
            return;
        }
        for (Map.Entry<TablePath, Set<Long>> table : partitionsByTable.entrySet()) {
            Set<TablePath> one = Set.of(table.getKey());
            if (!updated(metadata, one, table.getValue(), deadline) && !table.getValue().isEmpty()) {
                updated(metadata, one, Set.of(), deadline);
            }
        }
    }

    private static boolean updated(MetadataUpdater metadata, Set<TablePath> tables, Set<Long> partitions,
            Deadline deadline) throws InterruptedException {
        try {
            deadline.call(() -> {
                metadata.updateMetadata(tables, null, partitions.isEmpty() ? null : partitions);
                return null;
            }, "Fluss (metadata of " + tables.size() + " tables)");
            return true;
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            return false;
        }
    }
}
