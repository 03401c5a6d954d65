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
    int length = 1 + 4;
    for (int i = 0; i < size; i++) {
      length += ReadingSerde.readingBytes(readings, i);
    }
    final ByteBuffer buffer = ByteBuffer.allocate(length).put(BATCH_FORMAT).putInt(size);
    for (int i = 0; i < size; i++) {
      ReadingSerde.putReading(buffer, readings, i);
    }
    return buffer.array();
  }

  private static ReadingBatch decode(final ByteBuffer buffer) {
    final int size = buffer.getInt();
    if (size < 1 || size > buffer.remaining() / ReadingSerde.readingBytes(null)) {
      throw new IllegalStateException(
          "a batch of readings on the repartition topic claims " + size + " readings");
    }
    final ReadingBatch batch = new ReadingBatch(size);
    for (int i = 0; i < size; i++) {
      ReadingSerde.readReading(buffer, batch);
    }
    return batch;
  }
}
