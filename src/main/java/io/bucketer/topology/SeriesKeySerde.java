package io.bucketer.topology;

import io.bucketer.buckets.SeriesKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Binary form of a series: the key of the repartition topic (so Kafka partitions by series) and the
 * series part of every state-store key. Length prefixes keep it unambiguous for any strings: {@code
 * [u16 sensor length][sensor utf-8][u8 has metric][u16 metric length][metric utf-8]}.
 */
public final class SeriesKeySerde implements Serde<SeriesKey> {

  /** Reads a series written by {@link #toBytes}, advancing {@code buffer}. */
  static SeriesKey read(final ByteBuffer buffer) {
    final String sensorId = readString(buffer);
    final boolean hasMetric = buffer.get() != 0;
    final String metric = readString(buffer);
    return new SeriesKey(sensorId, hasMetric ? metric : null);
  }

  /**
   * Advances {@code buffer} past a series written by {@link #toBytes}, decoding nothing: a reader
   * that needs only its bytes (a compaction of the window log replays every change it holds) makes
   * no strings.
   */
  static void skip(final ByteBuffer buffer) {
    skipString(buffer);
    buffer.get(); // has metric
    skipString(buffer);
  }

  private static void skipString(final ByteBuffer buffer) {
    final int length = Short.toUnsignedInt(buffer.getShort());
    buffer.position(buffer.position() + length);
  }

  /**
   * The {@link SeriesKey#hashCode} of the series {@link #toBytes} wrote at {@code offset} of {@code
   * bytes}, without making the key or its strings: an ASCII name's hash is its bytes', as {@link
   * String#hashCode} computes it; any other name is decoded for it.
   */
  static int hashCodeAt(final byte[] bytes, final int offset) {
    final int sensorLength = unsignedShortAt(bytes, offset);
    final int sensorHash = stringHashAt(bytes, offset + 2, sensorLength);
    final int flagAt = offset + 2 + sensorLength;
    final int metricLength = unsignedShortAt(bytes, flagAt + 1);
    final int metricHash =
        bytes[flagAt] == 0 ? 0 : stringHashAt(bytes, flagAt + 1 + 2, metricLength);
    return 31 * sensorHash + metricHash;
  }

  private static int unsignedShortAt(final byte[] bytes, final int at) {
    return (bytes[at] & 0xFF) << 8 | bytes[at + 1] & 0xFF;
  }

  private static int stringHashAt(final byte[] bytes, final int from, final int length) {
    int hash = 0;
    for (int i = from; i < from + length; i++) {
      if (bytes[i] < 0) {
        return new String(bytes, from, length, StandardCharsets.UTF_8).hashCode();
      }
      hash = 31 * hash + bytes[i];
    }
    return hash;
  }

  /** The encoding of {@code series}, each string encoded to UTF-8 once. */
  static byte[] toBytes(final SeriesKey series) {
    final byte[] sensor = utf8(series.sensorId());
    final byte[] metric = utf8OrEmpty(series.metric());
    if (sensor.length > 0xFFFF || metric.length > 0xFFFF) {
      throw new IllegalArgumentException("series name longer than 65535 bytes");
    }
    final ByteBuffer buffer = ByteBuffer.allocate(2 + sensor.length + 1 + 2 + metric.length);
    buffer.putShort((short) sensor.length).put(sensor);
    buffer.put((byte) (series.metric() == null ? 0 : 1));
    buffer.putShort((short) metric.length).put(metric);
    return buffer.array();
  }

  private static String readString(final ByteBuffer buffer) {
    final byte[] bytes = new byte[Short.toUnsignedInt(buffer.getShort())];
    buffer.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static byte[] utf8(final String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] utf8OrEmpty(final String text) {
    return text == null ? new byte[0] : utf8(text);
  }

  @Override
  public Serializer<SeriesKey> serializer() {
    return (topic, series) -> series == null ? null : toBytes(series);
  }

  @Override
  public Deserializer<SeriesKey> deserializer() {
    return (topic, bytes) -> bytes == null ? null : read(ByteBuffer.wrap(bytes));
  }
}
