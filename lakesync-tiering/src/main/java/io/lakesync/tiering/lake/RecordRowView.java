package io.lakesync.tiering.lake;

import org.apache.fluss.lake.paimon.tiering.FlussRecordAsPaimonRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.memory.MemorySegment;
import org.apache.paimon.types.RowType;

/**
 * A Fluss record as a Paimon row in Fluss's lake layout, like {@link FlussRecordAsPaimonRow}, whose strings
 * are views over the record's own bytes instead of copies. Fluss's row copies every string value into a new
 * array, which Paimon's write buffer then copies again: 8% of a primary-key backfill's CPU samples.
 *
 * <p>A string stays valid only until the next record replaces this one, so the view serves only a writer that
 * serializes each row before it takes the next: Paimon's merge-tree write buffer does. A string spread over
 * several memory segments, or held off the heap, is copied as before. Not thread-safe.
 */
final class RecordRowView extends FlussRecordAsPaimonRow {

    /** The Fluss heap array the last string lay in, and the Paimon segment wrapping it (rows often share one). */
    private byte[] wrappedArray;

    private MemorySegment[] wrappedSegments;

    RecordRowView(int bucket, RowType tableRowType) {
        super(bucket, tableRowType);
    }

    @Override
    public BinaryString getString(int pos) {
        org.apache.fluss.row.BinaryString value = internalRow.getString(pos);
        org.apache.fluss.memory.MemorySegment[] segments = value.getSegments();
        byte[] heap = segments.length == 1 ? segments[0].getHeapMemory() : null;
        if (heap == null) {
            return super.getString(pos);
        }
        if (heap != wrappedArray) {
            wrappedArray = heap;
            wrappedSegments = new MemorySegment[] {MemorySegment.wrap(heap)};
        }
        return BinaryString.fromAddress(wrappedSegments, value.getOffset(), value.getSizeInBytes());
    }
}
