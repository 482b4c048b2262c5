package io.lakesync.tiering.columnar.write;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.paimon.shade.org.apache.parquet.bytes.BytesInput;
import org.apache.paimon.shade.org.apache.parquet.column.Encoding;
import org.apache.paimon.shade.org.apache.parquet.column.values.ValuesWriter;
import org.apache.paimon.shade.org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.paimon.shade.org.apache.parquet.io.ParquetEncodingException;
import org.apache.paimon.shade.org.apache.parquet.io.api.Binary;

/**
 * A page's values in Parquet's PLAIN encoding, byte for byte what parquet-mr's {@link PlainValuesWriter} writes
 * (little-endian numbers, each binary value after its 4-byte length), into one array that grows to the largest page
 * and is reused from page to page. parquet-mr's writer puts every value through a little-endian data stream into
 * a slab stream, one small array copy per number: in a settled log backfill that per-value path was the largest
 * part of Parquet encoding. The buffered size, which decides where pages and row groups end, is the same byte count.
 * A page's bytes are valid until {@link #reset()}, as parquet-mr's: the page store compresses or copies them first.
 */
final class PlainPageValues extends ValuesWriter {

    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] buffer;
    private int size;
    /** Where {@link Binary#writeTo(OutputStream)} copies a binary value's bytes. */
    private final OutputStream sink = new OutputStream() {
        @Override
        public void write(int b) {
            writeByte(b);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            ensureRoom(length);
            System.arraycopy(bytes, offset, buffer, size, length);
            size += length;
        }
    };

    PlainPageValues(int initialSize) {
        this.buffer = new byte[Math.max(Long.BYTES, initialSize)];
    }

    @Override
    public void writeInteger(int v) {
        ensureRoom(Integer.BYTES);
        INTS.set(buffer, size, v);
        size += Integer.BYTES;
    }

    @Override
    public void writeLong(long v) {
        ensureRoom(Long.BYTES);
        LONGS.set(buffer, size, v);
        size += Long.BYTES;
    }

    @Override
    public void writeFloat(float v) {
        writeInteger(Float.floatToIntBits(v));
    }

    @Override
    public void writeDouble(double v) {
        writeLong(Double.doubleToLongBits(v));
    }

    @Override
    public void writeByte(int value) {
        ensureRoom(1);
        buffer[size++] = (byte) value;
    }

    @Override
    public void writeBytes(Binary v) {
        writeInteger(v.length());
        try {
            v.writeTo(sink);
        } catch (IOException e) {
            throw new ParquetEncodingException("could not write bytes", e);
        }
    }

    private void ensureRoom(int bytes) {
        if (bytes > buffer.length - size) {
            buffer = Arrays.copyOf(buffer, Math.max(size + bytes, 2 * buffer.length));
        }
    }

    @Override
    public long getBufferedSize() {
        return size;
    }

    @Override
    public BytesInput getBytes() {
        return BytesInput.from(buffer, 0, size);
    }

    @Override
    public Encoding getEncoding() {
        return Encoding.PLAIN;
    }

    @Override
    public void reset() {
        size = 0;
    }

    @Override
    public void close() {
        size = 0;
    }

    @Override
    public long getAllocatedSize() {
        return buffer.length;
    }

    @Override
    public String memUsageString(String prefix) {
        return String.format("%s PLAIN %,d bytes", prefix, buffer.length);
    }
}
