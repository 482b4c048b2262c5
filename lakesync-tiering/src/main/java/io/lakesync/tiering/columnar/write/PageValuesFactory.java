package io.lakesync.tiering.columnar.write;

import org.apache.paimon.shade.org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.paimon.shade.org.apache.parquet.column.ColumnDescriptor;
import org.apache.paimon.shade.org.apache.parquet.column.Encoding;
import org.apache.paimon.shade.org.apache.parquet.column.ParquetProperties;
import org.apache.paimon.shade.org.apache.parquet.column.values.RequiresFallback;
import org.apache.paimon.shade.org.apache.parquet.column.values.ValuesWriter;
import org.apache.paimon.shade.org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.paimon.shade.org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.paimon.shade.org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.paimon.shade.org.apache.parquet.column.values.plain.PlainValuesWriter;

/**
 * A values-writer factory whose encoders are {@code delegate}'s, chosen by its rules (which columns get a
 * dictionary, which encoding a page gets), except that parquet-mr's PLAIN encoder, alone or as a dictionary's
 * fallback, is a {@link PlainPageValues}, and its BINARY, INT32 and INT64 dictionaries are
 * {@link DictionaryPageValues}: the same bytes, written with less work per value.
 */
final class PageValuesFactory implements ValuesWriterFactory {

    private final ValuesWriterFactory delegate;
    private ParquetProperties properties;

    PageValuesFactory(ValuesWriterFactory delegate) {
        this.delegate = delegate;
    }

    @Override
    public void initialize(ParquetProperties properties) {
        delegate.initialize(properties);
        this.properties = properties;
    }

    @Override
    public ValuesWriter newValuesWriter(ColumnDescriptor descriptor) {
        ValuesWriter writer = delegate.newValuesWriter(descriptor);
        if (writer.getClass() == PlainValuesWriter.class) {
            writer.close();
            return plain();
        }
        if (writer instanceof FallbackValuesWriter<?, ?> fallback) {
            ValuesWriter fallBackTo = fallback.fallBackWriter;
            if (fallBackTo.getClass() == PlainValuesWriter.class) {
                fallBackTo.close();
                fallBackTo = plain();
            }
            return withFallback(dictionary(fallback.initialWriter), fallBackTo);
        }
        return writer;
    }

    private PlainPageValues plain() {
        return new PlainPageValues(properties.getInitialSlabSize());
    }

    /** Ours in place of parquet-mr's dictionary encoder of the same column, if we have one for its type. */
    private <I extends ValuesWriter & RequiresFallback> ValuesWriter dictionary(I parquetMr) {
        Encoding dataPage = parquetMr.getEncoding();
        // parquet-mr labels dictionary pages PLAIN_DICTIONARY in format 1.0, where data pages are PLAIN_DICTIONARY
        // too, and PLAIN in 2.0, where data pages are RLE_DICTIONARY.
        Encoding dictionaryPage = dataPage == Encoding.PLAIN_DICTIONARY ? Encoding.PLAIN_DICTIONARY : Encoding.PLAIN;
        int maxBytes = properties.getDictionaryPageSizeThreshold();
        ByteBufferAllocator allocator = properties.getAllocator();
        Class<?> type = parquetMr.getClass();
        if (type == DictionaryValuesWriter.PlainBinaryDictionaryValuesWriter.class) {
            return new DictionaryPageValues.Binaries(maxBytes, dataPage, dictionaryPage, allocator);
        }
        if (type == DictionaryValuesWriter.PlainLongDictionaryValuesWriter.class) {
            return new DictionaryPageValues.Longs(maxBytes, dataPage, dictionaryPage, allocator);
        }
        if (type == DictionaryValuesWriter.PlainIntegerDictionaryValuesWriter.class) {
            return new DictionaryPageValues.Ints(maxBytes, dataPage, dictionaryPage, allocator);
        }
        return parquetMr;
    }

    @SuppressWarnings("unchecked")
    private static <I extends ValuesWriter & RequiresFallback> ValuesWriter withFallback(
            ValuesWriter initial, ValuesWriter fallBackTo) {
        return FallbackValuesWriter.of((I) initial, fallBackTo);
    }
}
