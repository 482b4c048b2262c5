package io.lakesync.fluss;

import io.lakesync.fluss.BucketHeads;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.fluss.client.Connection;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.rpc.messages.GetTableInfoRequest;

/**
 * A table's info as Fluss's {@code Admin#getTableInfo} gives it (the same request, to a random tablet server),
 * with each distinct table descriptor parsed once per service. Every answer carries the table's descriptor as
 * JSON, and parsing it took a fifth of the Fluss client's event-loop CPU when 200 small tables were synced: a
 * round asks for its table's info at least once, and tables created alike, or one table's rounds until it is
 * altered, send the same bytes. Parsing is a function of the bytes alone and a {@link TableDescriptor} never
 * changes, so rounds share a parsed one; the id, schema id and times come from each answer. Holds the
 * {@value #DESCRIPTORS} descriptors used last. Thread-safe.
 */
public final class TableInfos {

    static final int DESCRIPTORS = 256;

    private final Connection connection;
    private final Map<DescriptorJson, TableDescriptor> descriptors =
            new LinkedHashMap<>(32, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<DescriptorJson, TableDescriptor> eldest) {
                    return size() > DESCRIPTORS;
                }
            };
    private long parsed;

    public TableInfos(Connection connection) {
        this.connection = connection;
    }

    /** The table's info now; fails as {@code Admin#getTableInfo} does (for example a table that does not exist). */
    public CompletableFuture<TableInfo> get(TablePath path) {
        GetTableInfoRequest request = new GetTableInfoRequest();
        request.setTablePath().setDatabaseName(path.getDatabaseName()).setTableName(path.getTableName());
        return BucketHeads.metadataOf(connection)
                .newRandomTabletServerClient()
                .getTableInfo(request)
                .thenApply(answer -> TableInfo.of(
                        path,
                        answer.getTableId(),
                        answer.getSchemaId(),
                        descriptor(answer.getTableJson()),
                        answer.getCreatedTime(),
                        answer.getModifiedTime()));
    }

    /** How many descriptors were parsed, not taken from those already parsed. */
    synchronized long parsedDescriptors() {
        return parsed;
    }

    private TableDescriptor descriptor(byte[] json) {
        DescriptorJson key = new DescriptorJson(json);
        synchronized (this) {
            TableDescriptor known = descriptors.get(key);
            if (known != null) {
                return known;
            }
        }
        // Parsed outside the lock: two rounds may both parse the same new descriptor, which is harmless.
        TableDescriptor descriptor = TableDescriptor.fromJsonBytes(json);
        synchronized (this) {
            parsed++;
            descriptors.put(key, descriptor);
        }
        return descriptor;
    }

    /** A descriptor's JSON as a map key: equal bytes, equal key. */
    private static final class DescriptorJson {
        private final byte[] bytes;
        private final int hash;

        DescriptorJson(byte[] bytes) {
            this.bytes = bytes;
            this.hash = Arrays.hashCode(bytes);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof DescriptorJson json && hash == json.hash && Arrays.equals(bytes, json.bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
