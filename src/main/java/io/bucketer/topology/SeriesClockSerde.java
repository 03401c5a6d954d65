package io.bucketer.topology;

import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The values of the series-clock store ({@link TopologyNames#CLOCK_STORE}): a quiet series' clock,
 * in epoch milliseconds.
 *
 * <pre>
 * format 1: [format u8 = 1][clock i64]   (big-endian, 9 bytes)
 * </pre>
 *
 * <p>Builds before the format byte wrote the bare 8 bytes of Kafka's {@code LongSerializer}; they
 * are still read, told apart by their length alone: 8 bytes is such a clock, every versioned value
 * is longer. A clock is written only when the wall clock moves a quiet series' windows, never per
 * reading, so the byte costs nothing that shows.
 */
final class SeriesClockSerde implements Serde<Long> {

  static final byte FORMAT = 1;
  private static final int UNVERSIONED_BYTES = Long.BYTES;

  @Override
  public Serializer<Long> serializer() {
    return (topic, clock) -> clock == null ? null : encode(clock);
  }

  @Override
  public Deserializer<Long> deserializer() {
    return (topic, bytes) -> bytes == null ? null : decode(bytes);
  }

  static byte[] encode(final long clock) {
    return ByteBuffer.allocate(1 + Long.BYTES).put(FORMAT).putLong(clock).array();
  }

  static long decode(final byte[] bytes) {
    if (bytes.length == UNVERSIONED_BYTES) {
      return ByteBuffer.wrap(bytes).getLong();
    }
    if (bytes.length == 1 + Long.BYTES && bytes[0] == FORMAT) {
      return ByteBuffer.wrap(bytes, 1, Long.BYTES).getLong();
    }
    throw new SerializationException(
        "a series clock of "
            + bytes.length
            + " bytes"
            + (bytes.length > 0 ? " in format " + bytes[0] : "")
            + ": not one this build reads");
  }
}
