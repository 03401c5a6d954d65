package io.bucketer.topology;

import io.bucketer.buckets.SeriesKey;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The values of the repartition topic, which only this application writes and reads: the readings
 * that one upstream task gathered for one partition between two commits ({@link PartitionBatch}). A
 * leading format byte says how the rest is laid out:
 *
 * <ul>
 *   <li>5 (written now): the partition (4 bytes), the number of parts (4 bytes), then for each part
 *       a series' key as {@link SeriesKeySerde} lays it out, the number of its readings (4 bytes)
 *       and each reading as format 4 lays one out. Big-endian. A batch gathered by series has one
 *       part per series; one written as its readings came ({@link PartitionBatchWriter}) a part per
 *       reading, so a series may come in several parts, each read in its place.
 *   <li>1 to 4 (one series per record, its series in the record's key, written by earlier
 *       versions): read by {@link ReadingBatchSerde} as a batch of that one series, so that an
 *       upgrade takes over a repartition topic that has records in it.
 * </ul>
 *
 * The record's key is one of the batch's series: the partitioner ({@link SeriesPartitioner}) does
 * not read it, and the reader takes each series from the value.
 */
final class PartitionBatchSerde implements Serde<PartitionBatch> {

  private static final byte FORMAT = 5;
  private final ReadingBatchSerde earlierFormats = new ReadingBatchSerde();

  @Override
  public Serializer<PartitionBatch> serializer() {
    return (topic, batch) -> batch == null ? null : valueOf(batch);
  }

  @Override
  public Deserializer<PartitionBatch> deserializer() {
    final Deserializer<ReadingBatch> earlier = earlierFormats.deserializer();
    return (topic, bytes) -> {
      if (bytes == null) {
        return null;
      }
      if (bytes.length > 0 && bytes[0] == FORMAT) {
        return PartitionBatch.encoded(bytes, checked(bytes));
      }
      return PartitionBatch.ofKeyedSeries(earlier.deserialize(topic, bytes));
    };
  }

  /**
   * The record value of {@code batch}: the bytes it was written as or read from when it has them (a
   * batch {@link PartitionBatchWriter} wrote), else its series encoded.
   */
  static byte[] valueOf(final PartitionBatch batch) {
    final byte[] written = batch.encodedValue();
    return written != null ? written : encode(batch);
  }

  static byte[] encode(final PartitionBatch batch) {
    final int[] length = {1 + 4 + 4};
    batch.forEachEncoded(
        (series, readings) -> {
          length[0] += series.length + 4;
          for (int i = 0; i < readings.size(); i++) {
            length[0] += ReadingSerde.readingBytes(readings, i);
          }
        });
    final ByteBuffer buffer =
        ByteBuffer.allocate(length[0])
            .put(FORMAT)
            .putInt(batch.partition())
            .putInt(batch.seriesCount());
    batch.forEachEncoded(
        (series, readings) -> {
          buffer.put(series);
          buffer.putInt(readings.size());
          for (int i = 0; i < readings.size(); i++) {
            ReadingSerde.putReading(buffer, readings, i);
          }
        });
    return buffer.array();
  }

  /**
   * The readings {@code value} holds, once its layout is checked: every series' key and readings
   * within its bytes. A batch is decoded only when its readings are applied, perhaps after a hold
   * and a restart, so a value that cannot be is refused here, as it is read, naming what it claims.
   */
  static int checked(final byte[] value) {
    final ByteBuffer buffer = ByteBuffer.wrap(value, 1, value.length - 1);
    int readings = 0;
    try {
      final int seriesCount = checkedHeader(buffer);
      for (int s = 0; s < seriesCount; s++) {
        SeriesKeySerde.skip(buffer);
        final int size = checkedSize(buffer);
        for (int i = 0; i < size; i++) {
          ReadingSerde.skipReading(buffer);
        }
        readings += size;
      }
    } catch (BufferUnderflowException | IndexOutOfBoundsException | IllegalArgumentException e) {
      throw new IllegalStateException(
          "a batch of readings on the repartition topic claims more bytes than its "
              + value.length);
    }
    return readings;
  }

  private static int checkedHeader(final ByteBuffer buffer) {
    final int partition = buffer.getInt();
    final int seriesCount = buffer.getInt();
    if (partition < 0 || seriesCount < 1 || seriesCount > buffer.remaining()) {
      throw new IllegalStateException(
          "a batch of readings on the repartition topic claims partition "
              + partition
              + " and "
              + seriesCount
              + " series");
    }
    return seriesCount;
  }

  private static int checkedSize(final ByteBuffer buffer) {
    final int size = buffer.getInt();
    if (size < 1 || size > buffer.remaining() / ReadingSerde.readingBytes(null)) {
      throw new IllegalStateException(
          "a batch of readings on the repartition topic claims " + size + " readings of a series");
    }
    return size;
  }

  /** The first byte of the current format. */
  static byte format() {
    return FORMAT;
  }

  /**
   * Decodes {@code value}, of the current format, into {@code batch}, a batch {@link
   * PartitionBatch#encoded} made of it.
   */
  static void decodeInto(final byte[] value, final PartitionBatch batch) {
    final ByteBuffer buffer = ByteBuffer.wrap(value, 1, value.length - 1);
    batch.readPartition(buffer.getInt(1));
    final int seriesCount = checkedHeader(buffer);
    for (int s = 0; s < seriesCount; s++) {
      final SeriesKey series = SeriesKeySerde.read(buffer);
      final int size = checkedSize(buffer);
      final ReadingBatch readings = new ReadingBatch(size);
      for (int i = 0; i < size; i++) {
        ReadingSerde.readReading(buffer, readings);
      }
      batch.put(series, readings);
    }
  }
}
