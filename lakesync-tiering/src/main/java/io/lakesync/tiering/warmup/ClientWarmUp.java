package io.lakesync.tiering.warmup;

import io.lakesync.fluss.FlussClient;
import io.lakesync.tiering.round.RoundPlanner;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * Warms the Fluss client's request path at start-up with the read-only requests a round starts with (table
 * info, the coordinator's lake checkpoint, the buckets' latest offsets), against the cluster the instance
 * serves, before it takes tables. {@link WriteWarmUp} warms the lake side offline; the client's side (Netty,
 * the RPC messages, the table descriptors' JSON) only runs against a cluster, and on 200 small tables a cold
 * instance otherwise spends a large share of its first minute compiling it.
 *
 * <p>Nothing is written and no table changes hands: the tiering coordinator is not asked for tables until this
 * is over. The requests go to the first {@code maxTables} lake-enabled tables the cluster lists, round robin,
 * {@code concurrency} tables at a time, until {@code requestBudget} were sent (the listing's own requests
 * included) or {@code timeLimit} passed, so a large cluster sees a bounded burst. Requests that fail (a table dropped meanwhile, no lake snapshot yet)
 * count as well: what is warmed is the client's code, not an answer.
 */
public final class ClientWarmUp {

    /** What a run did. */
    public record Result(int tables, int requests, int failed, Duration took) {}

    /** The tables to warm with, and how many table-info requests finding them took. */
    private record Listing(List<TablePath> tables, int requests) {}

    private static final long REQUEST_TIMEOUT_SECONDS = 10;

    private final FlussClient fluss;
    private final RoundPlanner planner;
    private final int maxTables;
    private final int requestBudget;
    private final int concurrency;
    private final Duration timeLimit;
    private final Clock clock;

    public ClientWarmUp(
            FlussClient fluss,
            int maxTables,
            int requestBudget,
            int concurrency,
            Duration timeLimit,
            Clock clock) {
        this.fluss = fluss;
        this.planner = new RoundPlanner(fluss);
        this.maxTables = maxTables;
        this.requestBudget = requestBudget;
        this.concurrency = concurrency;
        this.timeLimit = timeLimit;
        this.clock = clock;
    }

    /** Runs the warm-up; fails only if the cluster cannot be listed at all. */
    public Result run() throws Exception {
        Instant start = clock.instant();
        Instant giveUpAt = start.plus(timeLimit);
        Listing listing = lakeTables(giveUpAt);
        List<TablePath> tables = listing.tables();
        int requests = listing.requests();
        int failed = 0;
        int next = 0;
        while (!tables.isEmpty() && requests < requestBudget && clock.instant().isBefore(giveUpAt)) {
            // Table info and lake snapshot first, then the offsets from this thread, as a round's planner asks
            // for them: it may block on a metadata update, so it must not run on the client's Netty thread.
            List<CompletableFuture<TableInfo>> infos = new ArrayList<>();
            List<CompletableFuture<?>> inFlight = new ArrayList<>();
            for (int i = 0; i < concurrency && requests < requestBudget; i++, next++) {
                TablePath table = tables.get(next % tables.size());
                CompletableFuture<TableInfo> info = fluss.tableInfo(table);
                infos.add(info);
                inFlight.add(info);
                inFlight.add(fluss.latestLakeSnapshot(table));
                requests += 2;
            }
            for (int i = 0; i < infos.size() && requests < requestBudget; i++) {
                TableInfo info = answer(infos.get(i));
                if (info != null) {
                    requests++;
                    if (!offsetsAnswered(info)) {
                        failed++;
                    }
                }
            }
            for (CompletableFuture<?> request : inFlight) {
                if (answer(request) == null) {
                    failed++;
                }
            }
        }
        return new Result(tables.size(), requests, failed, Duration.between(start, clock.instant()));
    }

    /**
     * Asks for the table's high watermarks as a round's planner does, or for a partitioned table's partitions
     * (one request, as the budget counts it, however many partitions there are); whether the answer came.
     */
    private boolean offsetsAnswered(TableInfo info) throws InterruptedException {
        if (info.isPartitioned()) {
            return answer(fluss.partitions(info.getTablePath())) != null;
        }
        try {
            planner.endOffsets(info);
            return true;
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            return false;
        }
    }

    /** The request's answer, or null if it failed or took too long. */
    private static <T> T answer(CompletableFuture<T> request) throws InterruptedException {
        try {
            return request.get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return null;
        }
    }

    /** Up to {@code maxTables} tables with the lake enabled, in the order the cluster lists them. */
    private Listing lakeTables(Instant giveUpAt) throws Exception {
        List<TablePath> lakeTables = new ArrayList<>();
        int looked = 0;
        for (String database : fluss.databases().get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            for (String name : fluss.tables(database).get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                if (lakeTables.size() >= maxTables || looked >= requestBudget || !clock.instant().isBefore(giveUpAt)) {
                    return new Listing(lakeTables, looked);
                }
                looked++;
                TablePath path = TablePath.of(database, name);
                try {
                    TableInfo info = fluss.tableInfo(path).get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                    if (info.getTableConfig().isDataLakeEnabled()) {
                        lakeTables.add(path);
                    }
                } catch (ExecutionException droppedMeanwhile) {
                    // Listed, then dropped: not one to warm with.
                }
            }
        }
        return new Listing(lakeTables, looked);
    }
}
