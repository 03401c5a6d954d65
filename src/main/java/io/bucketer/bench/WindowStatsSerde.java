package io.bucketer.bench;

import java.nio.ByteBuffer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * {@link WindowStats} in a fixed layout of 32 bytes, {@code [count i64][sum f64][min f64][max
 * f64]}, big-endian: the store's values, their changelog's and the closed windows' topic.
 */
final class WindowStatsSerde implements Serde<WindowStats> {

  static final int BYTES = Long.BYTES + 3 * Double.BYTES;

  @Override
  public Serializer<WindowStats> serializer() {
    return (topic, stats) ->
        stats == null
            ? null
            : ByteBuffer.allocate(BYTES)
                .putLong(stats.count())
                .putDouble(stats.sum())
                .putDouble(stats.min())
                .putDouble(stats.max())
                .array();
  }

  @Override
  public Deserializer<WindowStats> deserializer() {
    return (topic, bytes) -> {
      if (bytes == null) {
        return null;
      }
      if (bytes.length != BYTES) {
        throw new IllegalArgumentException(
            "window stats are " + BYTES + " bytes, not " + bytes.length);
      }
      final ByteBuffer buffer = ByteBuffer.wrap(bytes);
      return new WindowStats(
          buffer.getLong(), buffer.getDouble(), buffer.getDouble(), buffer.getDouble());
    };
  }
}
