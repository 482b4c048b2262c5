package io.lakesync.tiering.columnar;

import io.lakesync.fluss.FlussClient;
import io.lakesync.fluss.ReconnectingConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import javax.annotation.Nullable;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.metadata.ClientSchemaGetter;
import org.apache.fluss.client.metadata.MetadataUpdater;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.LogFormat;
import org.apache.fluss.metadata.SchemaGetter;
import org.apache.fluss.metadata.SchemaInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.record.LogRecordReadContext;
import org.apache.fluss.rpc.entity.FetchLogResultForBucket;
import org.apache.fluss.rpc.gateway.TabletServerGateway;
import org.apache.fluss.rpc.messages.FetchLogRequest;
import org.apache.fluss.rpc.messages.FetchLogResponse;
import org.apache.fluss.rpc.messages.PbFetchLogReqForBucket;
import org.apache.fluss.rpc.messages.PbFetchLogReqForTable;
import org.apache.fluss.rpc.messages.PbFetchLogRespForBucket;
import org.apache.fluss.rpc.messages.PbFetchLogRespForTable;
import org.apache.fluss.rpc.protocol.Errors;
import org.apache.fluss.rpc.util.CommonRpcMessageUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the Arrow log of a table's buckets (a log table's log, or a primary-key table's changelog) with the
 * tablet servers' fetch RPC and hands each record to a {@link RecordSink} as a view over the batch's Arrow
 * vectors (a log table's batches, to an {@link AppendRangeSink}, as whole ranges of rows): no row object is
 * copied per record, which the Fluss 0.9.1 {@code LogScanner} does for every record
 * ({@code CompletedFetch#toScanRecord}).
 *
 * <p>One fetch per leader is in flight at a time; when a response arrives the next fetch (from the end of the
 * batches just received) is sent before those batches are decoded, so the server reads ahead while this thread
 * writes. Leader changes and transient errors refresh the metadata and fetch again; what this reader does not
 * cover hands the bucket back to the row path ({@link LogPosition} draws the states): log segments moved to
 * remote storage, an offset out of range (a truncated log), a batch that cannot be decoded, an error that
 * lasts. A fetch left unanswered well past the server's wait is given up and sent again
 * ({@link #FETCH_ANSWER_GRACE}). Fetch sizes, wait time and CRC checks follow the connection's {@code client.scanner.log.*} options,
 * as the {@code LogScanner} would. Not thread-safe.
 */
public final class ArrowLogReader implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ArrowLogReader.class);
    /** Failed fetches of one bucket in a row (each after a metadata refresh) before it goes to the row path. */
    private static final int MAX_ATTEMPTS = 5;
    /**
     * How long a fetch may stay unanswered beyond the server's own wait before it counts as lost and is sent
     * again: a fetch whose answer never comes would otherwise hold its buckets until the idle timeout ends the
     * round (seen under load, where the embedded cluster went silent for 10–20 s).
     */
    static final Duration FETCH_ANSWER_GRACE = Duration.ofSeconds(5);

    private final MetadataUpdater metadata;
    private final TablePath tablePath;
    private final long tableId;
    private final SchemaGetter schemaGetter;
    private final LogRecordReadContext readContext;
    private final BatchConsumer consumer;
    private final int maxBytes;
    private final int maxBucketBytes;
    private final int minBytes;
    private final int maxWaitMs;
    private final Map<TableBucket, Subscription> subscriptions = new LinkedHashMap<>();
    private final Map<Integer, InFlight> inFlight = new HashMap<>();
    private final Map<Integer, TabletServerGateway> gateways = new HashMap<>();
    private final LongSupplier nanoClock;
    private final long fetchTimeoutNanos;
    private long fetchesLost;

    private ArrowLogReader(FlussConnection connection, TableInfo tableInfo, LongSupplier nanoClock) {
        Configuration conf = connection.getConfiguration();
        this.metadata = connection.getMetadataUpdater();
        this.tablePath = tableInfo.getTablePath();
        this.tableId = tableInfo.getTableId();
        SchemaInfo schema = new SchemaInfo(tableInfo.getSchema(), tableInfo.getSchemaId());
        this.schemaGetter = new ClientSchemaGetter(tablePath, schema, connection.getOrCreateAdmin());
        this.readContext = LogRecordReadContext.createReadContext(tableInfo, false, null, schemaGetter);
        this.consumer = new BatchConsumer(
                tableInfo.getRowType(), tableInfo.getSchemaId(), conf.get(ConfigOptions.CLIENT_SCANNER_LOG_CHECK_CRC), !tableInfo.hasPrimaryKey());
        this.maxBytes = (int) conf.get(ConfigOptions.CLIENT_SCANNER_LOG_FETCH_MAX_BYTES).getBytes();
        this.maxBucketBytes = (int) conf.get(ConfigOptions.CLIENT_SCANNER_LOG_FETCH_MAX_BYTES_FOR_BUCKET).getBytes();
        this.minBytes = (int) conf.get(ConfigOptions.CLIENT_SCANNER_LOG_FETCH_MIN_BYTES).getBytes();
        this.maxWaitMs = (int) conf.get(ConfigOptions.CLIENT_SCANNER_LOG_FETCH_WAIT_MAX_TIME).toMillis();
        this.nanoClock = nanoClock;
        this.fetchTimeoutNanos = Duration.ofMillis(maxWaitMs).plus(FETCH_ANSWER_GRACE).toNanos();
    }

    /**
     * Why the columnar reader cannot read this table, or null when it can: it reads Arrow logs through a direct
     * Fluss connection. A primary-key table's Arrow changelog carries a change type per record (the batch's
     * change-type vector), which the record views expose as the row path's records do.
     */
    public static @Nullable String unsupportedReason(FlussClient fluss, TableInfo tableInfo) {
        if (tableInfo.getTableConfig().getLogFormat() != LogFormat.ARROW) {
            return "log format " + tableInfo.getTableConfig().getLogFormat() + " (only ARROW is read columnar)";
        }
        Connection connection = flussConnection(fluss);
        if (!(connection instanceof FlussConnection)) {
            return "the Fluss connection is a " + connection.getClass().getSimpleName();
        }
        return null;
    }

    /** A reader for the table; call only when {@link #unsupportedReason} is null. */
    public static ArrowLogReader open(FlussClient fluss, TableInfo tableInfo) {
        return open(fluss, tableInfo, System::nanoTime);
    }

    /** {@link #open(FlussClient, TableInfo)} with the clock, in nanoseconds, that times the fetches' answers. */
    public static ArrowLogReader open(FlussClient fluss, TableInfo tableInfo, LongSupplier nanoClock) {
        return new ArrowLogReader((FlussConnection) flussConnection(fluss), tableInfo, nanoClock);
    }

    private static Connection flussConnection(FlussClient fluss) {
        return ReconnectingConnection.currentOf(fluss.connectionForArrowReads());
    }

    /** Reads the position's bucket from now on; the position shows its progress. */
    public void subscribe(LogPosition position) {
        subscriptions.put(position.bucket(), new Subscription(position));
    }

    /** Whether some subscribed bucket is still read by this reader. */
    public boolean reading() {
        return subscriptions.values().stream().anyMatch(s -> s.position.reading());
    }

    /**
     * Sends the fetches due, waits up to {@code timeout} for one response, and hands its records to the sink.
     * Returns how many records it handed over (0 when no response came, or it brought nothing new).
     */
    public long poll(Duration timeout, RecordSink sink) throws Exception {
        dropUnanswered();
        sendFetches();
        if (inFlight.isEmpty()) {
            return 0;
        }
        CompletableFuture<?> any = CompletableFuture.anyOf(
                inFlight.values().stream().map(f -> f.response).toArray(CompletableFuture[]::new));
        try {
            any.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return 0;
        } catch (ExecutionException e) {
            // Handled below, per leader.
        }
        long written = 0;
        for (Integer leader : new ArrayList<>(inFlight.keySet())) {
            InFlight fetch = inFlight.get(leader);
            if (fetch.response.isDone()) {
                inFlight.remove(leader);
                written += complete(leader, fetch, sink);
            }
        }
        return written;
    }

    private long complete(int leader, InFlight fetch, RecordSink sink) throws Exception {
        FetchLogResponse response;
        try {
            response = fetch.response.join();
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            LOG.debug("A log fetch of {} from tablet server {} failed", tablePath, leader, cause);
            gateways.remove(leader);
            for (Subscription subscription : fetch.buckets) {
                retryLater(subscription, cause.toString());
            }
            return 0;
        }
        List<Map.Entry<Subscription, FetchLogResultForBucket>> fetched = new ArrayList<>();
        for (PbFetchLogRespForTable tableResponse : response.getTablesRespsList()) {
            for (PbFetchLogRespForBucket bucketResponse : tableResponse.getBucketsRespsList()) {
                TableBucket bucket = new TableBucket(
                        tableResponse.getTableId(),
                        bucketResponse.hasPartitionId() ? bucketResponse.getPartitionId() : null,
                        bucketResponse.getBucketId());
                Subscription subscription = subscriptions.get(bucket);
                if (subscription == null || !subscription.inFlight) {
                    continue;
                }
                subscription.inFlight = false;
                FetchLogResultForBucket result =
                        CommonRpcMessageUtils.getFetchLogResultForBucket(bucket, tablePath, bucketResponse);
                if (accepted(subscription, result)) {
                    fetched.add(Map.entry(subscription, result));
                }
            }
        }
        for (Subscription subscription : fetch.buckets) {
            if (subscription.inFlight) {
                subscription.inFlight = false;
                retryLater(subscription, "the tablet server did not answer for the bucket");
            }
        }
        // The next fetches start from the end of these batches; the server reads them while we decode.
        sendFetches();
        long written = 0;
        for (Map.Entry<Subscription, FetchLogResultForBucket> entry : fetched) {
            written += consumer.consume(
                    entry.getKey().position, entry.getValue().recordsOrEmpty().batches(), readContext, sink);
            if (entry.getKey().position.state() == LogPosition.State.HANDED_BACK) {
                logHandBack(entry.getKey().position);
            }
        }
        return written;
    }

    /**
     * Forgets the fetches unanswered for longer than the server may wait plus {@link #FETCH_ANSWER_GRACE}, so
     * that their buckets are fetched again (a late answer is ignored: only fetches in flight are read).
     */
    private void dropUnanswered() {
        long now = nanoClock.getAsLong();
        for (Integer leader : new ArrayList<>(inFlight.keySet())) {
            InFlight fetch = inFlight.get(leader);
            if (fetch.response.isDone() || now - fetch.sentAtNanos < fetchTimeoutNanos) {
                continue;
            }
            inFlight.remove(leader);
            fetchesLost++;
            LOG.info("{}: a log fetch from tablet server {} got no answer in {} ms; fetching again",
                    tablePath, leader, Duration.ofNanos(now - fetch.sentAtNanos).toMillis());
            for (Subscription subscription : fetch.buckets) {
                if (subscription.inFlight) {
                    subscription.inFlight = false;
                    retryLater(subscription, "a fetch that got no answer");
                }
            }
        }
    }

    /** Fetches given up for want of an answer, since this reader opened. */
    public long fetchesLost() {
        return fetchesLost;
    }

    /** Whether the bucket's result holds batches to decode; moves its next fetch offset past them. */
    private boolean accepted(Subscription subscription, FetchLogResultForBucket result) {
        LogPosition position = subscription.position;
        if (!position.reading()) {
            return false;
        }
        if (result.failed()) {
            Errors error = result.getError().error();
            if (error == Errors.NOT_LEADER_OR_FOLLOWER
                    || error == Errors.LEADER_NOT_AVAILABLE_EXCEPTION
                    || error == Errors.FENCED_LEADER_EPOCH_EXCEPTION
                    || error == Errors.UNKNOWN_TABLE_OR_BUCKET_EXCEPTION
                    || error == Errors.NETWORK_EXCEPTION) {
                retryLater(subscription, result.getError().formatErrMsg());
            } else {
                handBack(subscription, "the fetch failed: " + result.getError().formatErrMsg());
            }
            return false;
        }
        if (result.fetchFromRemote()) {
            handBack(subscription, "its log from offset " + subscription.nextFetch + " is in remote storage");
            return false;
        }
        subscription.attempts = 0;
        long next = subscription.nextFetch;
        for (var batch : result.recordsOrEmpty().batches()) {
            next = Math.max(next, batch.nextLogOffset());
        }
        subscription.nextFetch = next;
        return next > position.fetchOffset();
    }

    private void retryLater(Subscription subscription, String reason) {
        subscription.nextFetch = subscription.position.fetchOffset();
        if (++subscription.attempts >= MAX_ATTEMPTS) {
            handBack(subscription, MAX_ATTEMPTS + " fetches in a row failed, the last with " + reason);
            return;
        }
        subscription.leader = null;
        TableBucket bucket = subscription.position.bucket();
        try {
            metadata.updateTableOrPartitionMetadata(tablePath, bucket.getPartitionId());
        } catch (RuntimeException e) {
            LOG.debug("Refreshing the metadata of {} failed", tablePath, e);
        }
    }

    private void handBack(Subscription subscription, String reason) {
        subscription.position.handBack(reason);
        logHandBack(subscription.position);
    }

    private void logHandBack(LogPosition position) {
        LOG.info(
                "{} bucket {} goes on with the row reader at offset {}: {}",
                tablePath,
                position.bucket(),
                position.fetchOffset(),
                position.handBackReason());
    }

    /** Sends one fetch to every leader without one in flight, for its buckets still reading and not in flight. */
    private void sendFetches() {
        Map<Integer, List<Subscription>> byLeader = new HashMap<>();
        for (Subscription subscription : subscriptions.values()) {
            if (!subscription.position.reading() || subscription.inFlight
                    || subscription.nextFetch >= subscription.position.endOffset()) {
                continue;
            }
            Integer leader = leaderOf(subscription);
            if (leader != null && !inFlight.containsKey(leader)) {
                byLeader.computeIfAbsent(leader, l -> new ArrayList<>()).add(subscription);
            }
        }
        byLeader.forEach(this::send);
    }

    private @Nullable Integer leaderOf(Subscription subscription) {
        if (subscription.leader == null) {
            TableBucket bucket = subscription.position.bucket();
            try {
                metadata.checkAndUpdateMetadata(tablePath, bucket);
                subscription.leader = metadata.leaderFor(tablePath, bucket);
            } catch (RuntimeException e) {
                retryLater(subscription, e.toString());
            }
        }
        return subscription.leader;
    }

    private void send(int leader, List<Subscription> buckets) {
        TabletServerGateway gateway = gateways.computeIfAbsent(leader, metadata::newTabletServerClientForNode);
        if (gateway == null) {
            // The cached bucket names a leader that is no longer among the cached servers: it stopped or moved.
            for (Subscription subscription : buckets) {
                retryLater(subscription, "tablet server " + leader + ", its leader, is not in the client's metadata");
            }
            return;
        }
        FetchLogRequest request = new FetchLogRequest()
                .setFollowerServerId(-1)
                .setMaxBytes(maxBytes)
                .setMinBytes(minBytes)
                .setMaxWaitMs(maxWaitMs);
        PbFetchLogReqForTable tableRequest =
                request.addTablesReq().setTableId(tableId).setProjectionPushdownEnabled(false);
        for (Subscription subscription : buckets) {
            TableBucket bucket = subscription.position.bucket();
            PbFetchLogReqForBucket bucketRequest = tableRequest.addBucketsReq()
                    .setBucketId(bucket.getBucket())
                    .setFetchOffset(subscription.nextFetch)
                    .setMaxFetchBytes(maxBucketBytes);
            if (bucket.getPartitionId() != null) {
                bucketRequest.setPartitionId(bucket.getPartitionId());
            }
            subscription.inFlight = true;
        }
        inFlight.put(leader, new InFlight(gateway.fetchLog(request), buckets, nanoClock.getAsLong()));
    }

    @Override
    public void close() {
        try {
            readContext.close();
        } finally {
            schemaGetter.release();
        }
    }

    private record InFlight(
            CompletableFuture<FetchLogResponse> response, List<Subscription> buckets, long sentAtNanos) {}

    /** A bucket's reading state beyond its position: where the next fetch starts, and where it goes. */
    private static final class Subscription {
        final LogPosition position;
        long nextFetch;
        @Nullable Integer leader;
        boolean inFlight;
        int attempts;

        Subscription(LogPosition position) {
            this.position = position;
            this.nextFetch = position.fetchOffset();
        }
    }
}
