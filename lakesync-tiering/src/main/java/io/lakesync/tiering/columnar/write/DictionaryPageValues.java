package io.lakesync.tiering.columnar.write;

import org.apache.paimon.shade.org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.paimon.shade.org.apache.parquet.column.Encoding;
import org.apache.paimon.shade.org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;

/**
 * parquet-mr's dictionary encoders for BINARY, INT32 and INT64 columns, with the same dictionaries, ids, pages
 * and fallback decisions, made cheaper per value in two ways:
 * <ul>
 *   <li>The fallback check after every value compares the dictionary's byte size with its bound only. parquet-mr
 *       also compares the entry count with {@code Integer.MAX_VALUE - 1}, through two virtual calls; that bound
 *       is never reached first, as every entry takes at least 4 bytes and the byte bound is an int.</li>
 *   <li>An INT64 equal to the one before (a batch's {@code __timestamp}) takes the previous id without a hash
 *       lookup. The previous id is known when that number was new to the dictionary; after a number seen before,
 *       the next value is looked up as parquet-mr does.</li>
 * </ul>
 */
final class DictionaryPageValues {

    private DictionaryPageValues() {}

    static final class Binaries extends DictionaryValuesWriter.PlainBinaryDictionaryValuesWriter {

        Binaries(int maxDictionaryByteSize, Encoding dataPage, Encoding dictionaryPage, ByteBufferAllocator allocator) {
            super(maxDictionaryByteSize, dataPage, dictionaryPage, allocator);
        }

        @Override
        public boolean shouldFallBack() {
            return dictionaryByteSize > maxDictionaryByteSize;
        }
    }

    static final class Longs extends DictionaryValuesWriter.PlainLongDictionaryValuesWriter {

        private final LastNewValue last = new LastNewValue();

        Longs(int maxDictionaryByteSize, Encoding dataPage, Encoding dictionaryPage, ByteBufferAllocator allocator) {
            super(maxDictionaryByteSize, dataPage, dictionaryPage, allocator);
        }

        @Override
        public void writeLong(long v) {
            if (last.is(v)) {
                encodedValues.add(last.id);
                return;
            }
            long bytesBefore = dictionaryByteSize;
            super.writeLong(v);
            if (dictionaryByteSize > bytesBefore) {
                last.remember(v, getDictionarySize() - 1); // new: the last id given
            } else {
                last.forget();
            }
        }

        @Override
        public boolean shouldFallBack() {
            return dictionaryByteSize > maxDictionaryByteSize;
        }

        @Override
        protected void clearDictionaryContent() {
            super.clearDictionaryContent();
            last.forget();
        }
    }

    static final class Ints extends DictionaryValuesWriter.PlainIntegerDictionaryValuesWriter {

        Ints(int maxDictionaryByteSize, Encoding dataPage, Encoding dictionaryPage, ByteBufferAllocator allocator) {
            super(maxDictionaryByteSize, dataPage, dictionaryPage, allocator);
        }

        @Override
        public boolean shouldFallBack() {
            return dictionaryByteSize > maxDictionaryByteSize;
        }
    }

    /** The number written last and its id, known only when that number was new to the dictionary. */
    private static final class LastNewValue {
        private boolean known;
        private long value;
        private int id;

        boolean is(long v) {
            return known && v == value;
        }

        void remember(long v, int newId) {
            known = true;
            value = v;
            id = newId;
        }

        void forget() {
            known = false;
        }
    }
}
