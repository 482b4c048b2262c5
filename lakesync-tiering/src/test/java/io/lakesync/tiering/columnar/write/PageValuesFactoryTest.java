package io.lakesync.tiering.columnar.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.paimon.shade.org.apache.parquet.column.ColumnDescriptor;
import org.apache.paimon.shade.org.apache.parquet.column.ParquetProperties;
import org.apache.paimon.shade.org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.paimon.shade.org.apache.parquet.column.page.DictionaryPage;
import org.apache.paimon.shade.org.apache.parquet.column.values.ValuesWriter;
import org.apache.paimon.shade.org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.paimon.shade.org.apache.parquet.column.values.factory.DefaultV1ValuesWriterFactory;
import org.apache.paimon.shade.org.apache.parquet.column.values.factory.DefaultV2ValuesWriterFactory;
import org.apache.paimon.shade.org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.paimon.shade.org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.paimon.shade.org.apache.parquet.column.values.plain.BooleanPlainValuesWriter;
import org.apache.paimon.shade.org.apache.parquet.io.api.Binary;
import org.apache.paimon.shade.org.apache.parquet.schema.MessageType;
import org.apache.paimon.shade.org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PageValuesFactoryTest {

    private static final MessageType SCHEMA = MessageTypeParser.parseMessageType(
            "message t { optional int64 id; optional binary name (STRING); optional int64 amount;"
                    + " optional int32 bucket; optional boolean flag; optional double price; }");
    /** Small, so that some column chunks below outgrow their dictionary. */
    private static final int DICTIONARY_BYTES = 1024;

    @Test
    void parquetMrsChoicesStandWithOurEncodersInPlaceOfItsPlainAndDictionaryOnes() {
        ParquetProperties properties = ParquetProperties.builder()
                .withDictionaryEncoding("id", false)
                .withValuesWriterFactory(new PageValuesFactory(new DefaultV1ValuesWriterFactory()))
                .build();

        assertThat(properties.newValuesWriter(column("id"))).isInstanceOf(PlainPageValues.class);
        assertDictionaryWithFallback(properties.newValuesWriter(column("name")), DictionaryPageValues.Binaries.class);
        assertDictionaryWithFallback(properties.newValuesWriter(column("amount")), DictionaryPageValues.Longs.class);
        assertDictionaryWithFallback(properties.newValuesWriter(column("bucket")), DictionaryPageValues.Ints.class);
        // Types without an encoder of ours keep parquet-mr's.
        assertDictionaryWithFallback(
                properties.newValuesWriter(column("price")),
                DictionaryValuesWriter.PlainDoubleDictionaryValuesWriter.class);
        assertThat(properties.newValuesWriter(column("flag"))).isInstanceOf(BooleanPlainValuesWriter.class);
    }

    private static void assertDictionaryWithFallback(ValuesWriter writer, Class<?> dictionary) {
        assertThat(writer).isInstanceOf(FallbackValuesWriter.class);
        FallbackValuesWriter<?, ?> fallback = (FallbackValuesWriter<?, ?>) writer;
        assertThat(fallback.initialWriter).isExactlyInstanceOf(dictionary);
        assertThat(fallback.fallBackWriter).isInstanceOf(PlainPageValues.class);
    }

    /**
     * Four column chunks of five pages each, written into ours and parquet-mr's encoders: a chunk of few values in
     * runs, one that outgrows the dictionary midway, one of few values again, one whose first page is all new
     * values (the first-page check falls back). Every page, its size and encoding, and every dictionary page match.
     */
    @ParameterizedTest
    @CsvSource({
        "PARQUET_1_0, name", "PARQUET_1_0, amount", "PARQUET_1_0, bucket",
        "PARQUET_2_0, name", "PARQUET_2_0, amount", "PARQUET_2_0, bucket"
    })
    void pagesAndDictionaryPagesAreParquetMrs(WriterVersion version, String columnName) throws Exception {
        ColumnDescriptor column = column(columnName);
        ParquetProperties ourProperties = properties(version, new PageValuesFactory(factory(version)));
        ParquetProperties parquetMrProperties = properties(version, factory(version));
        Random random = new Random(version.ordinal() * 31L + columnName.hashCode());
        int[] distinctPerChunk = {6, 100_000, 3, 100_000};
        long fresh = 1_000_000;
        for (int chunk = 0; chunk < distinctPerChunk.length; chunk++) {
            // New encoders per chunk, as parquet-mr makes them per row group.
            ValuesWriter ours = ourProperties.newValuesWriter(column);
            ValuesWriter parquetMr = parquetMrProperties.newValuesWriter(column);
            long value = 0;
            boolean fellBack = false;
            for (int page = 0; page < 5; page++) {
                for (int i = 0; i < 400; i++) {
                    boolean allNew = chunk == 3 && page == 0;
                    if (allNew || random.nextInt(4) == 0) {
                        // A new run: a value seen before, or (mostly, where the chunk has many) a fresh one.
                        value = allNew || (distinctPerChunk[chunk] > 10 && random.nextBoolean())
                                ? fresh++
                                : random.nextInt(distinctPerChunk[chunk]);
                    }
                    write(ours, column, value);
                    write(parquetMr, column, value);
                    assertThat(ours.getBufferedSize()).isEqualTo(parquetMr.getBufferedSize());
                }
                assertThat(ours.getBytes().toByteArray())
                        .as("chunk %d page %d", chunk, page)
                        .isEqualTo(parquetMr.getBytes().toByteArray());
                assertThat(ours.getEncoding()).isEqualTo(parquetMr.getEncoding());
                fellBack |= !parquetMr.getEncoding().usesDictionary();
                ours.reset();
                parquetMr.reset();
            }
            DictionaryPage ourDictionary = ours.toDictPageAndClose();
            DictionaryPage parquetMrDictionary = parquetMr.toDictPageAndClose();
            assertThat(fellBack).as("chunk %d fell back", chunk).isEqualTo(chunk % 2 == 1);
            if (chunk % 2 == 0) {
                assertThat(parquetMrDictionary).as("chunk %d keeps its dictionary", chunk).isNotNull();
            }
            if (parquetMrDictionary == null) {
                assertThat(ourDictionary).isNull();
            } else {
                assertThat(ourDictionary.getBytes().toByteArray()).isEqualTo(parquetMrDictionary.getBytes().toByteArray());
                assertThat(ourDictionary.getDictionarySize()).isEqualTo(parquetMrDictionary.getDictionarySize());
                assertThat(ourDictionary.getEncoding()).isEqualTo(parquetMrDictionary.getEncoding());
            }
        }
    }

    private static void write(ValuesWriter writer, ColumnDescriptor column, long value) {
        switch (column.getPrimitiveType().getPrimitiveTypeName()) {
            case INT64 -> writer.writeLong(value);
            case INT32 -> writer.writeInteger((int) value);
            default -> writer.writeBytes(Binary.fromConstantByteArray(
                    ("name-" + value).getBytes(StandardCharsets.UTF_8)));
        }
    }

    private static ParquetProperties properties(WriterVersion version, ValuesWriterFactory factory) {
        return ParquetProperties.builder()
                .withWriterVersion(version)
                .withDictionaryPageSize(DICTIONARY_BYTES)
                .withValuesWriterFactory(factory)
                .build();
    }

    private static ValuesWriterFactory factory(WriterVersion version) {
        return version == WriterVersion.PARQUET_1_0 ? new DefaultV1ValuesWriterFactory() : new DefaultV2ValuesWriterFactory();
    }

    private static ColumnDescriptor column(String name) {
        return SCHEMA.getColumnDescription(new String[] {name});
    }
}
