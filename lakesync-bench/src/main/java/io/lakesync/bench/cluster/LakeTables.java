package io.lakesync.bench.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;

/** The Paimon side of benchmark tables: how many rows and files a contender left in the warehouse. */
public final class LakeTables implements AutoCloseable {

    private static final String SCRATCH_DATABASE = "bench_scratch";

    private final Catalog catalog;

    public LakeTables(Map<String, String> catalogOptions) {
        this.catalog = CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(catalogOptions)));
    }

    /** Opens a catalog, as the child processes do, from the options of {@link BenchCluster#lakeCatalogOptions}. */
    public static Catalog openCatalog(Map<String, String> catalogOptions) {
        return CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(catalogOptions)));
    }

    /** Where the write bound writes the rows of {@code source}: a table of that name in its own database. */
    public static TablePath scratchOf(TablePath source) {
        return TablePath.of(SCRATCH_DATABASE, source.getTableName());
    }

    public static Identifier identifier(TablePath path) {
        return Identifier.create(path.getDatabaseName(), path.getTableName());
    }

    /** Rows a batch read of the latest snapshot returns (primary-key tables: live keys); 0 with no snapshot. */
    public long countRows(TablePath path) throws Exception {
        FileStoreTable table = (FileStoreTable) catalog.getTable(identifier(path));
        ReadBuilder read = table.newReadBuilder().withProjection(new int[] {0});
        List<Split> splits = read.newScan().plan().splits();
        long[] rows = {0};
        try (RecordReader<InternalRow> reader = read.newRead().createReader(splits)) {
            reader.forEachRemaining(row -> rows[0]++);
        }
        return rows[0];
    }

    /**
     * Every row a batch read of the latest snapshot returns (primary-key tables: merged), projected onto
     * {@code columns} in that order; nothing when the table has no snapshot.
     */
    public void forEachRow(TablePath path, List<String> columns, Consumer<InternalRow> consumer) throws Exception {
        FileStoreTable table = (FileStoreTable) catalog.getTable(identifier(path));
        List<String> fields = table.rowType().getFieldNames();
        int[] projection = columns.stream().mapToInt(column -> {
            int index = fields.indexOf(column);
            if (index < 0) {
                throw new IllegalArgumentException("Lake table " + path + " has no column '" + column + "': " + fields);
            }
            return index;
        }).toArray();
        ReadBuilder read = table.newReadBuilder().withProjection(projection);
        try (RecordReader<InternalRow> reader = read.newRead().createReader(read.newScan().plan().splits())) {
            reader.forEachRemaining(consumer);
        }
    }

    /** Data and changelog files in the table's bucket folders; 0 for a table that does not exist. */
    public long countFiles(TablePath path) throws Exception {
        Path location;
        try {
            location = location(path);
        } catch (Catalog.TableNotExistException e) {
            return 0;
        }
        if (!Files.isDirectory(location)) {
            return 0;
        }
        try (Stream<Path> buckets = Files.list(location)) {
            return buckets.filter(p -> p.getFileName().toString().startsWith("bucket-"))
                    .mapToLong(LakeTables::regularFiles)
                    .sum();
        }
    }

    /** The folder Paimon writes the table's snapshots into; empty when the lake table does not exist. */
    public Optional<Path> snapshotFolder(TablePath path) throws Exception {
        try {
            return Optional.of(location(path).resolve("snapshot"));
        } catch (Catalog.TableNotExistException e) {
            return Optional.empty();
        }
    }

    public void drop(TablePath path) throws Exception {
        catalog.dropTable(identifier(path), true);
    }

    private Path location(TablePath path) throws Exception {
        FileStoreTable table = (FileStoreTable) catalog.getTable(identifier(path));
        return Path.of(table.location().toUri().getPath());
    }

    private static long regularFiles(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(Files::isRegularFile).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws Exception {
        catalog.close();
    }
}
