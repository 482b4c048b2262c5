package io.lakesync.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@ClusterTest
class S3ServerTest {

    private static final Identifier TABLE = Identifier.create("db", "t");

    @TempDir
    Path dir;

    @Test
    void aPaimonWarehouseOnTheServerIsWrittenThroughS3AndOutlivesARestartOfTheServer() throws Exception {
        try (S3Server s3 = S3Server.start(dir, 0)) {
            s3.createBucket("lake");
            try (Catalog catalog = catalog(s3.catalogOptions("lake", "warehouse"))) {
                catalog.createDatabase("db", true);
                assertThat(catalog.listDatabases()).as("an empty database is a marker object").contains("db");
                catalog.createTable(TABLE, Schema.newBuilder().column("id", DataTypes.BIGINT()).option("bucket", "-1").build(), false);
                commit(catalog.getTable(TABLE), 1L, 2L);
                commit(catalog.getTable(TABLE), 3L);
                assertThat(ids(catalog.getTable(TABLE))).containsExactlyInAnyOrder(1L, 2L, 3L);
            }
        }

        try (S3Server restarted = S3Server.start(dir, 0);
                Catalog catalog = catalog(restarted.catalogOptions("lake", "warehouse"))) {
            assertThat(catalog.listDatabases()).contains("db");
            assertThat(ids(catalog.getTable(TABLE))).containsExactlyInAnyOrder(1L, 2L, 3L);
            commit(catalog.getTable(TABLE), 4L);
            assertThat(ids(catalog.getTable(TABLE))).containsExactlyInAnyOrder(1L, 2L, 3L, 4L);
        }
    }

    @Test
    void objectsOfManyChunksComeBackByteForByte() throws Exception {
        try (S3Server s3 = S3Server.start(dir, 0)) {
            s3.createBucket("lake");
            FileIO files = FileIO.get(new org.apache.paimon.fs.Path("s3://lake/"),
                    CatalogContext.create(Options.fromMap(s3.fileSystemOptions())));
            byte[] written = new byte[300_000];
            new Random(7).nextBytes(written);
            org.apache.paimon.fs.Path path = new org.apache.paimon.fs.Path("s3://lake/blob");
            try (PositionOutputStream out = files.newOutputStream(path, false)) {
                out.write(written);
            }
            try (InputStream in = files.newInputStream(path)) {
                assertThat(in.readAllBytes()).isEqualTo(written);
            }
        }
    }

    private static Catalog catalog(Map<String, String> options) {
        return CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(options)));
    }

    private static void commit(Table table, long... ids) throws Exception {
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
            for (long id : ids) {
                write.write(GenericRow.of(id));
            }
            commit.commit(write.prepareCommit());
        }
    }

    private static List<Long> ids(Table table) throws Exception {
        ReadBuilder read = table.newReadBuilder();
        List<Long> ids = new ArrayList<>();
        read.newRead().createReader(read.newScan().plan()).forEachRemaining(row -> ids.add(row.getLong(0)));
        return ids;
    }
}
