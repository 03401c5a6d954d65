package io.bucketer.topology;

import java.nio.ByteBuffer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The values of the repartition topic, which only this application writes and reads: the readings
 * of one series that one upstream task gathered between two commits. The series is the record's key
 * ({@link SeriesKeySerde}). A leading format byte says how the rest is laid out:
 *
 * <ul>
 *   <li>4 (written now): the number of readings (4 bytes), then each reading as format 3 lays one
 *       out: the timestamp (8 bytes, epoch milliseconds), the value (8 bytes, IEEE 754), a byte of
 *       flags (2: a UTC offset follows) and the offset (4 bytes) when present. Big-endian.
 *   <li>1 to 3 (one reading per record, written by earlier versions): read by {@link ReadingSerde},
 *       so that an upgrade takes over a repartition topic that has records in it.
 * </ul>
 */
final class ReadingBatchSerde implements Serde<ReadingBatch> {

  private static final byte BATCH_FORMAT = 4;
  private static final byte HAS_UTC_OFFSET = 2;

  /** Format 4's fixed part per reading: timestamp, value and flags. */
  private static final int READING_BYTES = 8 + 8 + 1;

  private final ReadingSerde singleReadings = new ReadingSerde();

  @Override
  public Serializer<ReadingBatch> serializer() {
    return (topic, readings) -> readings == null ? null : encode(readings);
  }

  @Override
  public Deserializer<ReadingBatch> deserializer() {
    final Deserializer<io.bucketer.avro.Reading> single = singleReadings.deserializer();
    return (topic, bytes) -> {
      if (bytes == null) {
        return null;
      }
      if (bytes.length > 0 && bytes[0] == BATCH_FORMAT) {
        return decode(ByteBuffer.wrap(bytes, 1, bytes.length - 1));
      }
      return ReadingBatch.of(single.deserialize(topic, bytes));
    };
  }

  static byte[] encode(final ReadingBatch readings) {
    final int size = readings.size();
    int length = 1 + 4 + size * READING_BYTES;
    for (int i = 0; i < size; i++) {
      if (readings.utcOffsetMinutes(i) != null) {
        length += 4;
      }
    }
    final ByteBuffer buffer = ByteBuffer.allocate(length).put(BATCH_FORMAT).putInt(size);
    for (int i = 0; i < size; i++) {
      final Integer utcOffset = readings.utcOffsetMinutes(i);
      buffer
          .putLong(readings.timestamp(i))
          .putDouble(readings.value(i))
          .put(utcOffset == null ? 0 : HAS_UTC_OFFSET);
      if (utcOffset != null) {
        buffer.putInt(utcOffset);
      }
    }
    return buffer.array();
  }

  private static ReadingBatch decode(final ByteBuffer buffer) {
    final int size = buffer.getInt();
    if (size < 1 || size > buffer.remaining() / READING_BYTES) {
      throw new IllegalStateException(
          "a batch of readings on the repartition topic claims " + size + " readings");
    }
    final ReadingBatch batch = new ReadingBatch(size);
    for (int i = 0; i < size; i++) {
      final long timestamp = buffer.getLong();
      final double value = buffer.getDouble();
      final byte flags = buffer.get();
      batch.add(timestamp, value, (flags & HAS_UTC_OFFSET) != 0 ? buffer.getInt() : null);
    }
    return batch;
  }
}
