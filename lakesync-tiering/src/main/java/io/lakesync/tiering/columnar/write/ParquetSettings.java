package io.lakesync.tiering.columnar.write;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.options.MemorySize;
import org.apache.paimon.shade.org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.paimon.shade.org.apache.parquet.column.ParquetProperties;
import org.apache.paimon.shade.org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.paimon.shade.org.apache.parquet.column.values.factory.DefaultV1ValuesWriterFactory;
import org.apache.paimon.shade.org.apache.parquet.column.values.factory.DefaultV2ValuesWriterFactory;
import org.apache.paimon.shade.org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.paimon.shade.org.apache.parquet.hadoop.ParquetOutputFormat;
import org.apache.paimon.shade.org.apache.parquet.hadoop.ParquetWriter;
import org.apache.paimon.shade.org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The Parquet writer settings of a Paimon table, worked out from its options as Paimon 1.3.1's Parquet format
 * does: the table's {@code parquet.*} options, {@code file.compression} (unless {@code parquet.compression}
 * overrides it) with {@code file.compression.zstd-level}, and {@code file.block-size} as the row-group size.
 */
record ParquetSettings(
        Configuration hadoopConf,
        ParquetProperties properties,
        CompressionCodecName codec,
        long rowGroupSize,
        int maxPaddingSize) {

    private static final String ZSTD_LEVEL = "parquet.compression.codec.zstd.level";

    /** Settings the columnar write does not reproduce; a table with one keeps Paimon's row writer. */
    static @Nullable String unsupportedOption(Map<String, String> tableOptions) {
        for (Map.Entry<String, String> option : tableOptions.entrySet()) {
            String key = option.getKey();
            boolean perColumn = key.startsWith("parquet.") && key.contains("#");
            boolean bloomFilter = key.startsWith(ParquetOutputFormat.BLOOM_FILTER_ENABLED)
                    && Boolean.parseBoolean(option.getValue());
            boolean encryption = key.startsWith("parquet.encryption") || key.startsWith("parquet.crypto");
            if (perColumn || bloomFilter || encryption || key.startsWith("file-index.")) {
                return "table option '" + key + "'";
            }
        }
        return null;
    }

    static ParquetSettings of(CoreOptions options) {
        return of(options, Set.of());
    }

    /**
     * The settings of {@link #of(CoreOptions)} with dictionary encoding off for {@code uniqueColumns}, columns
     * whose values are unique in every file, unless the table sets a dictionary option itself: the same as
     * Paimon's writer with the per-column option {@code parquet.enable.dictionary#<column> = false}. A dictionary
     * cannot pay off there: parquet-mr hashes every value until the dictionary is full, then falls back to plain
     * encoding and re-encodes the page.
     */
    static ParquetSettings of(CoreOptions options, Set<String> uniqueColumns) {
        Map<String, String> format = new HashMap<>();
        options.toMap().forEach((key, value) -> {
            if (key.startsWith("parquet.")) {
                format.put(key, value);
            }
        });
        format.putIfAbsent(ZSTD_LEVEL, String.valueOf(options.toConfiguration().get(CoreOptions.FILE_COMPRESSION_ZSTD_LEVEL)));
        MemorySize blockSize = options.toConfiguration().get(CoreOptions.FILE_BLOCK_SIZE);
        if (blockSize != null) {
            format.put(ParquetOutputFormat.BLOCK_SIZE, String.valueOf(blockSize.getBytes()));
        }
        Configuration conf = new Configuration(false);
        format.forEach(conf::set);
        WriterVersion writerVersion = WriterVersion.fromString(
                conf.get(ParquetOutputFormat.WRITER_VERSION, ParquetProperties.DEFAULT_WRITER_VERSION.toString()));
        ParquetProperties.Builder properties = ParquetProperties.builder()
                .withPageSize(conf.getInt(ParquetOutputFormat.PAGE_SIZE, ParquetWriter.DEFAULT_PAGE_SIZE))
                .withPageRowCountLimit(conf.getInt(
                        ParquetOutputFormat.PAGE_ROW_COUNT_LIMIT, ParquetProperties.DEFAULT_PAGE_ROW_COUNT_LIMIT))
                .withDictionaryPageSize(conf.getInt(
                        ParquetOutputFormat.DICTIONARY_PAGE_SIZE, ParquetProperties.DEFAULT_DICTIONARY_PAGE_SIZE))
                .withDictionaryEncoding(conf.getBoolean(
                        ParquetOutputFormat.ENABLE_DICTIONARY, ParquetProperties.DEFAULT_IS_DICTIONARY_ENABLED))
                .withWriterVersion(writerVersion);
        if (conf.get(ParquetOutputFormat.ENABLE_DICTIONARY) == null) {
            for (String column : uniqueColumns) {
                if (conf.get(ParquetOutputFormat.ENABLE_DICTIONARY + "#" + column) == null) {
                    properties.withDictionaryEncoding(column, false);
                }
            }
        }
        String compression = conf.get("parquet.compression", options.fileCompression());
        return new ParquetSettings(
                conf,
                build(properties, writerVersion),
                CompressionCodecName.fromConf(compression),
                conf.getLong(ParquetOutputFormat.BLOCK_SIZE, ParquetWriter.DEFAULT_BLOCK_SIZE),
                conf.getInt(ParquetOutputFormat.MAX_PADDING_BYTES, ParquetWriter.MAX_PADDING_SIZE_DEFAULT));
    }

    /** Whether the table's options turn Parquet's dictionary on or off themselves, for every column. */
    boolean dictionarySetByTable() {
        return hadoopConf.get(ParquetOutputFormat.ENABLE_DICTIONARY) != null;
    }

    /** These settings with Parquet's dictionary turned off for {@code columns} (page buffers as before). */
    ParquetSettings withoutDictionary(Collection<String> columns) {
        ParquetProperties.Builder builder = ParquetProperties.copy(properties);
        for (String column : columns) {
            builder.withDictionaryEncoding(column, false);
        }
        return new ParquetSettings(
                hadoopConf, build(builder, properties.getWriterVersion()), codec, rowGroupSize, maxPaddingSize);
    }

    /** These settings with parquet-mr's page buffers taken from {@code allocator} (see {@link PageBufferPool}). */
    ParquetSettings withAllocator(ByteBufferAllocator allocator) {
        return new ParquetSettings(
                hadoopConf,
                build(ParquetProperties.copy(properties).withAllocator(allocator), properties.getWriterVersion()),
                codec,
                rowGroupSize,
                maxPaddingSize);
    }

    /**
     * The properties of {@code builder}, with a values-writer factory of their own. parquet-mr's default factory is
     * one static object that every build rebinds to the properties built: every writer in the JVM would create
     * its value encoders with the properties built last, on any thread, so with their allocator (another
     * writer's {@link PageBufferPool}, which is not thread-safe: one buffer lent to two threads' encoders, pages
     * overwritten) and their dictionary and page settings. Some of its encoders are made cheaper per value
     * ({@link PageValuesFactory}).
     */
    static ParquetProperties build(ParquetProperties.Builder builder, WriterVersion writerVersion) {
        ValuesWriterFactory values = writerVersion == WriterVersion.PARQUET_1_0
                ? new DefaultV1ValuesWriterFactory()
                : new DefaultV2ValuesWriterFactory();
        return builder.withValuesWriterFactory(new PageValuesFactory(values)).build();
    }
}
